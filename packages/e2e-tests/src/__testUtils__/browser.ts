import fs from 'fs';
import path from 'path';
import { Browser, BrowserContext, Page, chromium } from 'playwright-core';

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

export type DemoUser = 'alice' | 'bob' | 'carol';

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

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * Each person's sign-in (the demo chooser keeps it in localStorage), by
 * browser and backend: the first page of theirs signs in through the
 * chooser, later ones open signed in.
 */
const signedIn = new WeakMap<Browser, Map<string, StorageState>>();

/** A fresh browser context signed in as `user`, on a System's page once its ladder is there. */
export async function openSystem(
  browser: Browser,
  baseUrl: string,
  user: DemoUser,
  system: string,
  viewport = { width: 1600, height: 1100 },
): Promise<Page> {
  const states = signedIn.get(browser) ?? new Map<string, StorageState>();
  signedIn.set(browser, states);
  const key = `${baseUrl} ${user}`;
  const storageState = states.get(key);
  const context = await browser.newContext({ viewport, storageState });
  // A busy 2-core machine renders and polls slowly: past Playwright's 30 s default for an action.
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  if (!storageState) {
    await signIn(page, baseUrl, user);
    states.set(key, await context.storageState());
  }
  await page.goto(`${baseUrl}/catalog/default/system/${system}`);
  // The first ladder of a fresh stack reads every Release cold.
  await page.getByTestId('stage-prod').waitFor({ timeout: 60_000 });
  return page;
}

/** A fresh browser context signed in as `user`, on the shop System page. */
export function openShop(
  browser: Browser,
  baseUrl: string,
  user: DemoUser,
  viewport = { width: 1600, height: 1100 },
): Promise<Page> {
  return openSystem(browser, baseUrl, user, 'shop', viewport);
}
