import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Input } from './input';

describe('Input focus', () => {
  it('shows focus as a 2 px ring in the brand colour (≥ 3:1 on white, WCAG 2.4.7/1.4.11), not a pale one', () => {
    render(<Input aria-label="E-mail" />);
    const classes = screen.getByLabelText('E-mail').className.split(/\s+/);
    expect(classes).toContain('focus:ring-2');
    expect(classes).toContain('focus:ring-brand-600');
    expect(classes.filter((c) => /^focus:ring-brand-(1|2|3)00$/.test(c))).toEqual([]);
  });
});
