import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('is singular only for one', () => {
    expect(`1 ${plural(1, 'automática', 'automáticas')} à parte`).toBe('1 automática à parte');
    expect(`1.002 ${plural(1002, 'automática', 'automáticas')}`).toBe('1.002 automáticas');
    expect(`0 ${plural(0, 'destinatário', 'destinatários')}`).toBe('0 destinatários');
  });
});
