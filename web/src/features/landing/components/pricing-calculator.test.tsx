import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PricingCalculator } from './pricing-calculator';

const nbsp = '\u00a0';

function type(value: string) {
  fireEvent.change(screen.getByTestId('calculator-input'), { target: { value } });
  return screen.getByTestId('calculator-cost').textContent;
}

describe('PricingCalculator', () => {
  it('has a numeric text input (the phone shows digits; "1.000" is a thousand, as a Brazilian writes it)', () => {
    render(<PricingCalculator />);
    const input = screen.getByLabelText('Quantos e-mails você quer enviar?');
    expect(input.getAttribute('inputmode')).toBe('numeric');
  });

  it.each([
    ['0', 'R$ 0,00'],
    ['', 'R$ 0,00'],
    ['1', 'R$ 0,01'],
    ['3', 'R$ 0,02'],
    ['1000', 'R$ 5,00'],
    ['12345', 'R$ 61,73'],
    ['1000000', 'R$ 5.000,00'],
    ['1.000', 'R$ 5,00'],
    ['1.000.000', 'R$ 5.000,00'],
  ])('%j e-mails cost %s, in pt-BR currency format (whole cents)', (amount, cost) => {
    render(<PricingCalculator />);
    expect(type(amount)).toBe(cost.replace(' ', nbsp));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the exact amount in millis beside a rounded one, and nothing more for whole cents', () => {
    render(<PricingCalculator />);
    type('12345');
    expect(screen.getByTestId('calculator-exact').textContent).toBe(
      `Valor exato debitado do saldo: R$${nbsp}61,725 (cobramos por milésimo de real).`,
    );
    type('1000');
    expect(screen.queryByTestId('calculator-exact')).toBeNull();
  });

  it('rejects a negative amount with a pt-BR message, never NaN', () => {
    render(<PricingCalculator />);
    const shown = type('-5');
    expect(shown).not.toContain('NaN');
    expect(shown).toBe('—');
    expect(screen.getByRole('alert').textContent).toBe('Digite um número inteiro de e-mails, igual ou maior que zero.');
    expect(screen.getByTestId('calculator-input').getAttribute('aria-invalid')).toBe('true');
  });

  it('rejects a fraction', () => {
    render(<PricingCalculator />);
    expect(type('1.5')).toBe('—');
    // "1,5" is refused with the message, never read as 15.
    expect(type('1,5')).toBe('—');
    expect(screen.getByRole('alert').textContent).toBe('Digite um número inteiro de e-mails, igual ou maior que zero.');
  });
});
