import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// On a loaded 2-core CI machine, and on a fresh clone whose transform cache is
// cold, rendering MUI tables and dialogs takes longer than testing-library's
// 1 s for findBy/waitFor and Jest's 5 s per test: with another CPU-heavy job
// beside CI, a dialog test of many clicks took over 30 s. Both still wait on
// conditions; only the patience grows.
configure({ asyncUtilTimeout: 20_000 });
jest.setTimeout(90_000);

// @backstage/ui injects its stylesheets (100 of them, 365 KB, for its `*_bui-*`
// classes) into the document when core-components loads. jsdom's
// getComputedStyle matches every rule of every sheet against the element, and
// MUI (TextareaAutosize, Popper), user-event (pointer-events) and
// testing-library (ByRole) call it constantly: these sheets made it a quarter
// of a dialog test's CPU. None of this plugin's elements carries a `*_bui-*`
// class, so no style a test can observe changes without them.
beforeAll(() => {
  for (const style of Array.from(document.head.querySelectorAll('style'))) {
    if (style.textContent?.includes('_bui-')) style.remove();
  }
});
