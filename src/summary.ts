/** One line that tells a person what a tool returned: for the chat transcript and the audit log. */
export function summarizeValue(value: unknown): { ok: boolean; line: string } {
  if (value && typeof value === 'object' && 'error' in value) {
    const error = (value as { error: { code?: string; message?: string } }).error;
    return { ok: false, line: truncate(`${error.code ?? 'error'}: ${error.message ?? ''}`) };
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.total === 'number' && Array.isArray(record.items))
      return { ok: true, line: `${record.total} item(s)` };
    // A result marked sensitive (reset-user-password's reset_link) is for the caller alone;
    // this line is written to the audit log, so its text values are left out.
    const hide = record.sensitive === true;
    const parts = Object.entries(record)
      .slice(0, 6)
      .map(
        ([k, v]) =>
          `${k}=${Array.isArray(v) ? `[${v.length}]` : typeof v === 'object' && v !== null ? '{…}' : hide && typeof v === 'string' ? '(hidden)' : String(v)}`,
      );
    return { ok: true, line: truncate(parts.join(' ')) };
  }
  return { ok: true, line: truncate(String(value)) };
}

/** The same for a tool message's text content (JSON, or plain text). */
export function summarizeToolResult(content: string): { ok: boolean; line: string } {
  try {
    return summarizeValue(JSON.parse(content));
  } catch {
    return { ok: true, line: truncate(content) };
  }
}

function truncate(text: string, max = 160): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > max ? `${single.slice(0, max - 1)}…` : single;
}
