import { Locator, Page } from 'playwright-core';

export interface LadderLayout {
  /** Widths of the card and the ladder table. */
  cardWidth: number;
  tableWidth: number;
  /** Every stage header's right edge, left to right. */
  stageRights: number[];
  /** Ladder cells whose content is wider than the cell. */
  overflowingCells: string[];
}

/**
 * `element` and the elements around it, up to the page, that scroll
 * sideways (with their widths): none should, on any screen we support.
 */
export function scrollingSideways(element: Locator): Promise<string[]> {
  return element.evaluate(start => {
    const scrolling: string[] = [];
    for (
      let el: HTMLElement | null = start as HTMLElement;
      el;
      el = el.parentElement
    ) {
      if (el.scrollWidth > el.clientWidth) {
        scrolling.push(
          `${el.tagName.toLowerCase()}.${el.className} ${el.scrollWidth} > ${el.clientWidth}`,
        );
      }
    }
    return scrolling;
  });
}

/** How the ladder sits in its card: its width, where the stages end, what overflows a cell. */
export function measureLadder(page: Page): Promise<LadderLayout> {
  return page.getByTestId('ladder-table').evaluate(table => {
    // Production builds suffix MUI's class names (MuiCard-root-623).
    const card = table.closest('[class*="MuiCard-root"]') as HTMLElement;
    const cells = Array.from(table.querySelectorAll<HTMLElement>('th, td'));
    return {
      cardWidth: card.clientWidth,
      tableWidth: table.scrollWidth,
      stageRights: Array.from(
        table.querySelectorAll('[data-testid^="stage-"]'),
      ).map(stage => stage.getBoundingClientRect().right),
      overflowingCells: cells
        .filter(cell => cell.scrollWidth > cell.clientWidth)
        .map(
          cell =>
            `${cell.dataset.testid ?? cell.textContent} ${cell.scrollWidth} > ${cell.clientWidth}`,
        ),
    };
  });
}

/** Table headings, buttons' and chips' labels: each meant to be one line. */
export const LABELS =
  'th, [class*="MuiButton-label"], [class*="MuiChip-label"]';

/**
 * The elements matching `selector` inside `root` whose text wraps onto a
 * second line or is cut: each should be one whole line. (Production builds
 * suffix MUI's class names, hence the substring matches.)
 */
export function wrappedLabels(
  root: Locator,
  selector: string = LABELS,
): Promise<string[]> {
  return root.evaluate((element, labelSelector) => {
    const labels = Array.from(
      element.querySelectorAll<HTMLElement>(labelSelector),
    );
    // A text that wraps (or breaks mid-word) lays out as more than one box.
    const wraps = (label: HTMLElement) => {
      const texts = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
      for (let text = texts.nextNode(); text; text = texts.nextNode()) {
        if (!text.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(text);
        if (range.getClientRects().length > 1) return true;
      }
      return false;
    };
    return labels
      .filter(label => wraps(label) || label.scrollWidth > label.clientWidth)
      .map(label => label.textContent ?? '');
  }, selector);
}

/** The elements inside `root` that hide part of their text (an ellipsis, a clipped line). */
export function clippedText(root: Locator): Promise<string[]> {
  return root.evaluate(element =>
    Array.from(element.querySelectorAll<HTMLElement>('*'))
      .filter(el => {
        const style = getComputedStyle(el);
        const hides =
          style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
        return (
          hides && el.textContent?.trim() && el.scrollWidth > el.clientWidth + 1
        );
      })
      .map(el => el.textContent ?? ''),
  );
}

/**
 * The buttons inside `root` whose accessible name does not contain their
 * visible label (WCAG 2.5.3, label in name), as "label → name". A speech
 * user says what they see ("click Promote"); a name without it cannot be
 * spoken.
 */
export function labelsMissingFromNames(root: Locator): Promise<string[]> {
  return root.evaluate(element =>
    Array.from(element.querySelectorAll<HTMLElement>('button, [role="button"], a[href]'))
      .filter(el => el.offsetParent !== null)
      .map(el => {
        const visible = el.innerText.replace(/\s+/g, ' ').trim();
        const labelledBy = el.getAttribute('aria-labelledby');
        const name =
          el.getAttribute('aria-label') ??
          (labelledBy ? document.getElementById(labelledBy)?.textContent ?? '' : visible);
        return { visible, name: name.replace(/\s+/g, ' ').trim() };
      })
      .filter(({ visible, name }) => visible && !name.toLowerCase().includes(visible.toLowerCase()))
      .map(({ visible, name }) => `${visible} → ${name}`),
  );
}

/** The tick labels one axis of a recharts chart draws, in order (recharts leaves out a label that would collide with its neighbour). */
export function axisLabels(chart: Locator, axis: 'x' | 'y'): Promise<string[]> {
  return chart
    .locator(`.recharts-${axis}Axis-tick-labels .recharts-cartesian-axis-tick-value`)
    .evaluateAll(labels => labels.map(label => label.textContent ?? ''));
}

/** The elements matching `selector` inside `root` that overlap another of them, by text: none should. */
export function overlapping(root: Locator, selector: string): Promise<string[]> {
  return root.evaluate((element, itemSelector) => {
    const items = Array.from(element.querySelectorAll(itemSelector)).map(item => ({
      text: item.textContent ?? '',
      box: item.getBoundingClientRect(),
    }));
    const meet = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return items.filter((item, i) => items.some((other, j) => i !== j && meet(item.box, other.box))).map(item => item.text);
  }, selector);
}
