import { useId, useState } from 'react';

/** A controlled text field's state with its label id (the back office's small forms). */
export function useField() {
  const id = useId();
  const [value, setValue] = useState('');
  return { id, value, setValue };
}
