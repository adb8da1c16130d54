import { describe, expect, it } from 'vitest';
import { decisionFrom } from '../../src/adapters/interrupt.js';
import { type AskedKey, decisionFor, ledgerOf, timesAsked } from '../../src/adapters/interrupt-match.js';

// Issue #48, finding 1: which LangGraph resume value answers which call's question. The
// integration tests (test/agent/interrupt-toolnode.test.ts) run it in real graphs; these pin the rules.
const a: AskedKey = { call: 'call_a', q: 'qa' };
const b: AskedKey = { call: 'call_b', q: 'qb' };
const approve = { type: 'approve' };
const reject = { type: 'reject', message: 'no' };

/** The task's last question was `key` at `slot`, after `earlier`. */
const lastAsked = (key: AskedKey, slot: number, earlier: AskedKey[] = [], id = `id${slot}`) => ({
  value: { slot, earlier, tool_call_id: key.call ?? undefined },
  key,
  id,
});

describe('matching a resume to its question', () => {
  it('an answer given to b at slot 0 is b’s, whichever call reaches interrupt() first', () => {
    const ledger = ledgerOf({ last: lastAsked(b, 0), answers: [reject], waiting: 1 });
    expect(decisionFor(ledger, [reject], a, decisionFrom)).toBeUndefined();
    expect(decisionFor(ledger, [reject], b, decisionFrom)).toEqual({ approved: false, reason: 'no' });
  });

  it('the chain of earlier questions keeps each slot’s owner', () => {
    const answers = [approve, reject];
    const ledger = ledgerOf({ last: lastAsked(b, 1, [a]), answers, resumeMap: { id1: reject }, waiting: 1 });
    expect(decisionFor(ledger, answers, a, decisionFrom)).toEqual({ approved: true });
    expect(decisionFor(ledger, answers, b, decisionFrom)).toMatchObject({ approved: false });
  });

  it('a resume map that does not name the waiting question: its answer counts for no one, and the call asks again', () => {
    const ledger = ledgerOf({ last: lastAsked(b, 1, [a]), answers: [reject, approve], resumeMap: { id0: approve }, waiting: 1 });
    expect(decisionFor(ledger, [reject, approve], b, decisionFrom)).toBeUndefined();
    expect(timesAsked(ledger, b)).toBe(1);
  });

  it('a bare value while two questions wait answers neither', () => {
    const ledger = ledgerOf({ last: lastAsked(a, 0), answers: [approve], waiting: 2 });
    expect(decisionFor(ledger, [approve], a, decisionFrom)).toBeUndefined();
    expect(decisionFor(ledgerOf({ last: lastAsked(a, 0), answers: [approve], waiting: 1 }), [approve], a, decisionFrom)).toEqual({
      approved: true,
    });
  });

  it('an answer naming another tool call is not taken', () => {
    const named = { type: 'approve', tool_call_id: 'call_a' };
    const ledger = ledgerOf({ last: lastAsked(b, 0), answers: [named], waiting: 1 });
    expect(decisionFor(ledger, [named], b, decisionFrom)).toBeUndefined();
  });

  it('an approval counts only for the same words; a rejection stands whatever the words now', () => {
    const old: AskedKey = { call: 'call_a', q: 'old words' };
    const approved = ledgerOf({ last: lastAsked(old, 0), answers: [approve], waiting: 1 });
    expect(decisionFor(approved, [approve], a, decisionFrom)).toBeUndefined();
    const rejected = ledgerOf({ last: lastAsked(old, 0), answers: [reject], waiting: 1 });
    expect(decisionFor(rejected, [reject], a, decisionFrom)).toMatchObject({ approved: false });
  });
});
