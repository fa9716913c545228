import { act, render, screen } from '@testing-library/react';
import { LadderCanary } from '@refplat/plugin-promotions-common';
import { CanaryProgress } from './CanaryProgress';

const paused: LadderCanary = {
  phase: 'Paused',
  currentStep: 1,
  totalSteps: 4,
  complete: false,
  weight: 25,
  paused: true,
  pauseReason: 'CanaryPauseStep',
  pausedSince: '2026-11-30T09:00:00.000Z',
  pausedForSeconds: 1,
  pauseDurationSeconds: 3,
  aborted: false,
};

describe('CanaryProgress', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('counts a timed pause on every second between ladder refreshes, then says it resumes', () => {
    const { rerender } = render(<CanaryProgress canary={paused} />);
    expect(screen.getByTestId('canary')).toHaveTextContent('Canary step 2 of 4 · 25%');
    expect(screen.getByTestId('canary-pause')).toHaveTextContent('paused 1s of 3s');
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByTestId('canary-pause')).toHaveTextContent('paused 2s of 3s');
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByTestId('canary-pause')).toHaveTextContent('pause over, resuming…');
    act(() => jest.advanceTimersByTime(5000));
    expect(screen.getByTestId('canary-pause')).toHaveTextContent('pause over, resuming…');

    // The next refresh reports a new pause: counting starts from it.
    rerender(<CanaryProgress canary={{ ...paused, currentStep: 2, pausedSince: '2026-11-30T09:00:05.000Z', pausedForSeconds: 0 }} />);
    expect(screen.getByTestId('canary-pause')).toHaveTextContent('paused 0s of 3s');
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByTestId('canary-pause')).toHaveTextContent('paused 1s of 3s');
  });

  it('counts an indefinite pause up and says it waits for a promote', () => {
    render(<CanaryProgress canary={{ ...paused, pauseDurationSeconds: undefined, pausedForSeconds: 59 }} />);
    expect(screen.getByTestId('canary-pause')).toHaveTextContent('paused 59s, waits for a promote');
    act(() => jest.advanceTimersByTime(2000));
    expect(screen.getByTestId('canary-pause')).toHaveTextContent('paused 1m 1s, waits for a promote');
  });

  it('says an aborted canary is aborted, and shows nothing once a canary completed', () => {
    const { rerender } = render(<CanaryProgress canary={{ ...paused, aborted: true, paused: false }} />);
    expect(screen.getByTestId('canary')).toHaveTextContent('Canary aborted');
    expect(screen.queryByTestId('canary-pause')).not.toBeInTheDocument();
    rerender(<CanaryProgress canary={{ ...paused, complete: true, paused: false, currentStep: 4, weight: 100 }} />);
    expect(screen.queryByTestId('canary')).not.toBeInTheDocument();
  });
});
