import useMeasure from 'react-use/esm/useMeasure';

/**
 * The width, in px, of the element given the returned ref: what the card
 * leaves the ladder. Measured rather than read from the window, because an
 * app decides how much of the page a card gets (a create-app Overview gives a
 * content card two thirds of it). 0 until measured, and where the browser
 * has no ResizeObserver.
 */
export function useCardWidth<E extends Element = HTMLDivElement>(): [
  ref: (element: E) => void,
  width: number,
] {
  const [ref, { width }] = useMeasure<E>();
  return [ref, width];
}
