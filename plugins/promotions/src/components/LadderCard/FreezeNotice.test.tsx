import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DateTime } from 'luxon';
import { FreezeNotice, freezeEnd } from './FreezeNotice';

const holidays = {
  name: 'holidays',
  reason: 'Holiday freeze',
  timezone: 'Europe/Berlin',
  start: '2026-12-19T23:00:00.000Z',
  end: '2027-01-04T23:00:00.000Z',
};

describe('freezeEnd', () => {
  it.each([
    ['2027-01-04T21:00:00.000Z', '2h'],
    ['2027-01-04T22:45:00.000Z', '15m'],
    ['2027-01-02T21:00:00.000Z', '2d 2h'],
  ])('at %s the freeze ends in %s', (now, endsIn) => {
    expect(freezeEnd(holidays, new Date(now)).endsIn).toBe(endsIn);
  });

  it("gives the end in the viewer's local time", () => {
    expect(freezeEnd(holidays, new Date('2027-01-04T21:00:00.000Z')).local).toBe(
      DateTime.fromISO(holidays.end).toLocaleString(DateTime.DATETIME_MED_WITH_WEEKDAY),
    );
  });
});

describe('FreezeNotice', () => {
  it("names the window, its reason and when it ends, in local time and from now", () => {
    const end = DateTime.now().plus({ hours: 2, seconds: 30 });
    render(<FreezeNotice stage="uat" freeze={{ ...holidays, end: end.toUTC().toISO()! }} />);
    const notice = screen.getByTestId('freeze-uat');
    expect(notice).toHaveTextContent(
      `Frozen by holidays until ${end.toLocaleString(DateTime.DATETIME_MED_WITH_WEEKDAY)} (ends in 2h): Holiday freeze`,
    );
  });

  it('says on hover, in the same local time, until when promotions are refused', async () => {
    const end = DateTime.now().plus({ hours: 2 });
    render(<FreezeNotice stage="uat" freeze={{ ...holidays, end: end.toUTC().toISO()! }} />);
    await userEvent.hover(screen.getByTestId('freeze-uat'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      `Promotions into uat are refused until ${end.toLocaleString(DateTime.DATETIME_MED_WITH_WEEKDAY)}; ` +
        'a release-approver may override',
    );
  });
});
