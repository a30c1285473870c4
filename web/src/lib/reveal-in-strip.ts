/**
 * Scrolls a sideways-scrolling strip (tabs, steps on a phone) just enough that `item` shows whole. The strip must be
 * the item's offsetParent (give it `position: relative`).
 */
export function revealInStrip(
  strip: { scrollLeft: number; clientWidth: number },
  item: { offsetLeft: number; offsetWidth: number },
): void {
  const hiddenRight = item.offsetLeft + item.offsetWidth - (strip.scrollLeft + strip.clientWidth);
  if (hiddenRight > 0) strip.scrollLeft += hiddenRight;
  else if (item.offsetLeft < strip.scrollLeft) strip.scrollLeft = item.offsetLeft;
}
