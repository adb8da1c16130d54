// Moved to src/evals (the eval harness replays reference trajectories through it); kept here for the tests.
export * from '../../src/evals/scripted-openai.js';
