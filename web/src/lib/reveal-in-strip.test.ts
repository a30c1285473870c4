import { describe, expect, it } from 'vitest';
import { revealInStrip } from './reveal-in-strip';

describe('revealInStrip', () => {
  it('scrolls right until an item cut at the right edge shows whole', () => {
    const strip = { scrollLeft: 0, clientWidth: 358 };
    revealInStrip(strip, { offsetLeft: 300, offsetWidth: 120 });
    expect(strip.scrollLeft).toBe(62);
  });

  it('scrolls left back to an item hidden at the left edge', () => {
    const strip = { scrollLeft: 200, clientWidth: 358 };
    revealInStrip(strip, { offsetLeft: 40, offsetWidth: 100 });
    expect(strip.scrollLeft).toBe(40);
  });

  it('leaves the strip alone when the item already shows whole', () => {
    const strip = { scrollLeft: 10, clientWidth: 358 };
    revealInStrip(strip, { offsetLeft: 100, offsetWidth: 100 });
    expect(strip.scrollLeft).toBe(10);
  });
});
