import fs from 'fs';
import path from 'path';
import { Browser, BrowserContext, Page, chromium } from 'playwright-core';
import { recordSignals } from './pageSignals';

export const SCREENSHOT_DIR = path.resolve(
  __dirname,
  '../../../../test-results/screenshots',
);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless; never a downloaded browser. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium); scripts/test.sh does this when run as root`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Until a confirm dialog shows its outcome (`{prefix}-result`); fails at once with the
 * dialog's error (`{prefix}-error`) when the backend refused, instead of waiting out the timeout.
 */
export async function dialogOutcome(page: Page, prefix: string, timeoutMs = 60_000): Promise<void> {
  const result = page.getByTestId(`${prefix}-result`);
  const error = page.getByTestId(`${prefix}-error`);
  await result.or(error).first().waitFor({ timeout: timeoutMs });
  if (await error.isVisible()) {
    throw new Error(`The ${prefix} dialog answered with an error: ${await error.textContent()}`);
  }
}

/**
 * Until the element with `testId` is there; past the timeout, fails with what the ladder card
 * showed instead (its text, and a screenshot `missing-{testId}.png`), so a failure says why.
 */
export async function waitForTestId(page: Page, testId: string, timeoutMs = 90_000): Promise<void> {
  try {
    await page.getByTestId(testId).first().waitFor({ timeout: timeoutMs });
  } catch (error) {
    const card = page.getByTestId('ladder-card');
    const shown = (await card.count()) ? await card.first().innerText() : await page.locator('body').innerText();
    const file = await screenshot(page, `missing-${testId}`);
    throw new Error(`${testId} not shown within ${timeoutMs} ms (screenshot ${file}); the page showed:\n${shown.slice(0, 4000)}`, {
      cause: error,
    });
  }
}

export type DemoUser = 'alice' | 'bob' | 'carol' | 'erin' | 'dave';

const SIGN_IN_TIMEOUT_MS = 60_000;

/** Signs in through the demo chooser as one of the demo people. */
export async function signIn(page: Page, baseUrl: string, user: DemoUser) {
  await page.goto(baseUrl, { timeout: SIGN_IN_TIMEOUT_MS });
  const title = user.charAt(0).toUpperCase() + user.slice(1);
  // A busy machine serves the app's first load slowly: past Playwright's 30 s default.
  await page.getByRole('button', { name: `Sign in as ${title}` }).click({ timeout: SIGN_IN_TIMEOUT_MS });
  await page.waitForURL(/\/catalog/, { timeout: SIGN_IN_TIMEOUT_MS });
  await page
    .getByRole('heading', { name: /Catalog/ })
    .first()
    .waitFor({ timeout: SIGN_IN_TIMEOUT_MS });
}

/**
 * One browser context per person, backend and browser, signed in once: a
 * person's pages share its HTTP and code caches, as tabs do. A load of the
 * app's System page in a fresh context cost Chromium about 7 CPU-seconds on
 * this 2-core machine, a new page in a context that loaded it before about 4.
 * Callers close their page, not its context; a context closed anyway is
 * forgotten and the next page signs in again.
 */
const personContexts = new WeakMap<Browser, Map<string, Promise<BrowserContext>>>();

function personContext(browser: Browser, baseUrl: string, user: DemoUser): Promise<BrowserContext> {
  const contexts = personContexts.get(browser) ?? new Map<string, Promise<BrowserContext>>();
  personContexts.set(browser, contexts);
  const key = `${baseUrl} ${user}`;
  const known = contexts.get(key);
  if (known) return known;
  const signedIn = (async () => {
    const context = await browser.newContext();
    // A busy 2-core machine renders and polls slowly: past Playwright's 30 s default for an action.
    context.setDefaultTimeout(60_000);
    context.on('close', () => contexts.delete(key));
    const page = await context.newPage();
    await signIn(page, baseUrl, user);
    await page.close();
    return context;
  })();
  contexts.set(key, signedIn);
  signedIn.catch(() => contexts.delete(key));
  return signedIn;
}

/**
 * A new page of `user`'s context (signed in), on a System's page once its
 * ladder is there and listens to the Product's signals (a change signalled
 * before would show only at the next poll). Close the page when done.
 */
export async function openSystem(
  browser: Browser,
  baseUrl: string,
  user: DemoUser,
  system: string,
  viewport = { width: 1600, height: 1100 },
): Promise<Page> {
  const page = await (await personContext(browser, baseUrl, user)).newPage();
  const signals = recordSignals(page);
  await page.setViewportSize(viewport);
  await page.goto(`${baseUrl}/catalog/default/system/${system}`);
  // The first ladder of a fresh stack reads every Release cold.
  await page.getByTestId('stage-prod').waitFor({ timeout: 60_000 });
  await signals.subscribed('promotions:', 60_000);
  return page;
}

/** A new page of `user`'s signed-in context, on the shop System page. */
export function openShop(
  browser: Browser,
  baseUrl: string,
  user: DemoUser,
  viewport = { width: 1600, height: 1100 },
): Promise<Page> {
  return openSystem(browser, baseUrl, user, 'shop', viewport);
}
