import { act, render, screen } from '@testing-library/react';
import { SoakCountdown } from './SoakCountdown';

describe('SoakCountdown', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('counts down every second and starts over from each new ladder reading', () => {
    const { rerender } = render(<SoakCountdown seconds={250} stage="test" testId="soak" />);
    expect(screen.getByTestId('soak')).toHaveTextContent('Soaking: 4m 10s left');

    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByTestId('soak')).toHaveTextContent('Soaking: 4m 9s left');
    act(() => jest.advanceTimersByTime(9000));
    expect(screen.getByTestId('soak')).toHaveTextContent('Soaking: 4m left');

    // The next ladder refresh reports the backend's own count.
    rerender(<SoakCountdown seconds={242} stage="test" testId="soak" />);
    expect(screen.getByTestId('soak')).toHaveTextContent('Soaking: 4m 2s left');
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByTestId('soak')).toHaveTextContent('Soaking: 4m 1s left');
  });

  it('disappears once the soak has elapsed', () => {
    render(<SoakCountdown seconds={2} stage="test" testId="soak" />);
    expect(screen.getByTestId('soak')).toHaveTextContent('Soaking: 2s left');
    act(() => jest.advanceTimersByTime(2000));
    expect(screen.queryByTestId('soak')).not.toBeInTheDocument();
  });
});
