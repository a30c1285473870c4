import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { idParam } from './id-param';

describe('idParam', () => {
  const id = '0b7c6f0e-3d2a-4c59-9a8e-2f1d4b6c8e10';

  it('returns the uuid of the route', () => {
    expect(idParam({ id }, 'list')).toBe(id);
  });

  it.each([
    ['not a uuid', { id: '42' }],
    ['missing', {}],
    ['not an object', undefined],
    ['a uuid with trailing text', { id: `${id}x` }],
  ])('answers 404 with the route message when the id is %s', (_case, params) => {
    let thrown: unknown;
    try {
      idParam(params, 'list');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: 'not_found', message: 'Lista não encontrada.' });
  });
});
