import { describe, expect, it } from 'vitest';
import { echoesSmsToConsole, type EchoFacts } from './log-levels.rules.js';

describe('echoesSmsToConsole', () => {
  it.each<[string, EchoFacts, boolean]>([
    ['development at a terminal, logs on stdout', { nodeEnv: 'development', logFile: null, stdoutIsTty: true }, true],
    ['development with LOG_FILE', { nodeEnv: 'development', logFile: '/var/log/vigia.log', stdoutIsTty: true }, false],
    ['development with stdout redirected to a file or a collector', { nodeEnv: 'development', logFile: null, stdoutIsTty: false }, false],
    ['production, even at a terminal', { nodeEnv: 'production', logFile: null, stdoutIsTty: true }, false],
    ['tests', { nodeEnv: 'test', logFile: null, stdoutIsTty: true }, false],
  ])('%s', (_name, facts, expected) => {
    expect(echoesSmsToConsole(facts)).toBe(expected);
  });
});
