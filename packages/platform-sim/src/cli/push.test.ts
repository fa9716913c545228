import { parsePushArgs, pushRequest } from './push';

describe('sim:push on the command line', () => {
  it('sends the team, product and service, and no supply-chain flag unless asked', () => {
    expect(pushRequest(parsePushArgs(['alpha', 'shop', 'storefront']))).toEqual({
      team: 'alpha',
      product: 'shop',
      service: 'storefront',
      bad: false,
      digest: undefined,
    });
  });

  it('turns --unsigned, --wrong-signer, --no-provenance, --tampered, --not-pushed, --foreign-builder and --foreign-source into the control API fields', () => {
    const flags = ['--unsigned', '--wrong-signer', '--no-provenance', '--tampered', '--not-pushed', '--foreign-builder', '--foreign-source'];
    // A switch before a positional argument does not take it as its value.
    expect(pushRequest(parsePushArgs(['--tampered', 'alpha', 'shop', 'storefront', ...flags]))).toEqual(
      expect.objectContaining({
        team: 'alpha',
        unsigned: true,
        wrongSigner: true,
        noProvenance: true,
        tampered: true,
        notPushed: true,
        foreignBuilder: true,
        foreignSource: true,
      }),
    );
    expect(pushRequest(parsePushArgs(['alpha', 'shop', 'storefront', '--not-pushed']))).toEqual(
      expect.objectContaining({ notPushed: true, service: 'storefront' }),
    );
  });
});

describe('sim:push stall flags', () => {
  it.each([
    ['--denied-by-admission', 'deniedByAdmission'],
    ['--unschedulable', 'unschedulable'],
    ['--quota-exceeded', 'quotaExceeded'],
    ['--probe-failing', 'probeFailing'],
    ['--crash-loop', 'crashLoop'],
    ['--slow-analysis', 'slowAnalysis'],
    ['--route-not-accepted', 'routeNotAccepted'],
  ])('turns %s into the control API field stall: %s', (flag, stall) => {
    // Before the positional arguments too: a stall flag is a switch, it takes no value.
    expect(pushRequest(parsePushArgs([flag, 'alpha', 'shop', 'storefront']))).toEqual({
      team: 'alpha',
      product: 'shop',
      service: 'storefront',
      bad: false,
      digest: undefined,
      stall,
    });
  });

  it('refuses two stalls at once: a build stalls one way only', () => {
    expect(() =>
      pushRequest(parsePushArgs(['alpha', 'shop', 'storefront', '--crash-loop', '--unschedulable'])),
    ).toThrow('a build stalls one way only, got --unschedulable --crash-loop');
  });
});
