import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp } from '@backstage/test-utils';
import { Provenance } from '@refplat/plugin-promotions-common';
import { ProvenanceNote, commitUrl } from './ProvenanceNote';

const VERIFIED: Provenance = {
  state: 'verified',
  sourceRepo: 'https://github.com/refplat/shop',
  sourceCommit: '3f2a1bc9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3',
  signer: 'https://github.com/refplat/shop/.github/workflows/build-sign.yml@refs/heads/main',
  builder: 'https://github.com/refplat/shop/.github/workflows/provenance.yml@refs/heads/main',
  reasons: [],
};

describe('ProvenanceNote', () => {
  it('says a verified digest is signed and links the source commit its provenance names; hovering names signer and builder', async () => {
    await renderInTestApp(<ProvenanceNote provenance={VERIFIED} testId="provenance-dev-storefront" />);
    const note = screen.getByTestId('provenance-dev-storefront');
    expect(note).toHaveAttribute('data-state', 'verified');
    expect(note).toHaveTextContent('Signed · from 3f2a1bc');
    expect(within(note).getByRole('link', { name: /^3f2a1bc/ })).toHaveAttribute(
      'href',
      'https://github.com/refplat/shop/commit/3f2a1bc9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3',
    );
    await userEvent.hover(note);
    const details = await screen.findByTestId('provenance-dev-storefront-details');
    expect(details).toHaveTextContent(`Signed by ${VERIFIED.signer}`);
    expect(details).toHaveTextContent(`SLSA provenance by ${VERIFIED.builder}`);
  });

  it.each([
    ['unverified', 'Not verified', 'storefront sha256:aaaaaaaaaaaa is not signed'],
    ['failed', 'Provenance failed', 'storefront sha256:aaaaaaaaaaaa never reached the registry'],
    ['unknown', 'Provenance unknown', 'storefront sha256:aaaaaaaaaaaa: the registry could not be asked: HTTP 503'],
  ] as const)('says %s and, on hover, why', async (state, words, reason) => {
    await renderInTestApp(<ProvenanceNote provenance={{ state, reasons: [reason] }} testId="provenance-test-cart" />);
    const note = screen.getByTestId('provenance-test-cart');
    expect(note).toHaveTextContent(words);
    expect(within(note).queryByRole('link')).not.toBeInTheDocument();
    await userEvent.hover(note);
    expect(await screen.findByTestId('provenance-test-cart-details')).toHaveTextContent(reason);
  });
});

describe('commitUrl', () => {
  it.each([
    ['https://github.com/refplat/shop', 'https://github.com/refplat/shop/commit/abc'],
    ['https://github.com/refplat/shop.git', 'https://github.com/refplat/shop/commit/abc'],
    ['https://github.com/refplat/shop/', 'https://github.com/refplat/shop/commit/abc'],
    ['http://127.0.0.1:7070/refplat/shop', 'http://127.0.0.1:7070/refplat/shop/commit/abc'],
    ['git+ssh://github.com/refplat/shop', undefined],
    ['javascript:alert(1)//', undefined],
    [undefined, undefined],
  ])('%p', (repo, url) => {
    expect(commitUrl(repo, 'abc')).toBe(url);
  });
});
