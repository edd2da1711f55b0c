import { describe, expect, it } from 'vitest';
import { parseWrapper } from '../../src/tasks/model.js';

describe('the wrapper file', () => {
  it("reads the wrapper file's line with its newline only, the cap in 512-byte blocks", () => {
    expect(parseWrapper('10 2000 boot-1 8\n')).toEqual({ wrapperPid: 10, wrapperStart: 2000, bootId: 'boot-1', capBytes: 4096 });
    expect(parseWrapper('10 2000 boot-1 8')).toBeNull();
    expect(parseWrapper('lost\n')).toBeNull();
  });
});
