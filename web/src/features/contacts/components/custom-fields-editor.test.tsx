import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import '@/lib/i18n/app-messages';
import { type CustomFieldRow, CustomFieldsEditor } from './custom-fields-editor';

function Harness({ initial, seen }: { initial: CustomFieldRow[]; seen: CustomFieldRow[][] }) {
  const [fields, setFields] = useState(initial);
  return (
    <CustomFieldsEditor
      fields={fields}
      keyPlaceholder="contacts.form.fieldExample"
      onChange={(next) => {
        seen.push(next);
        setFields(next);
      }}
    />
  );
}

describe('CustomFieldsEditor', () => {
  it('edits a row in place and adds an empty row, leaving the others untouched', () => {
    const seen: CustomFieldRow[][] = [];
    render(
      <Harness
        initial={[
          { k: 'cidade', v: 'Recife' },
          { k: 'plano', v: 'ouro' },
        ]}
        seen={seen}
      />,
    );
    const values = screen.getAllByRole('textbox', { name: 'Valor' });
    fireEvent.change(values[1] as HTMLElement, { target: { value: 'prata' } });
    expect(seen.at(-1)).toEqual([
      { k: 'cidade', v: 'Recife' },
      { k: 'plano', v: 'prata' },
    ]);
    fireEvent.click(screen.getByRole('button', { name: /campo/i }));
    expect(seen.at(-1)).toHaveLength(3);
    expect(seen.at(-1)?.[2]).toEqual({ k: '', v: '' });
    expect(screen.getAllByRole('textbox', { name: 'Valor' })).toHaveLength(3);
  });
});
