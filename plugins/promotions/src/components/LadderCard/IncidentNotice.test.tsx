import { render, screen } from '@testing-library/react';
import { StageIncidentGate } from '@refplat/plugin-promotions-common';
import { IncidentNotice } from './IncidentNotice';

const inc7 = { id: 'INC-7', url: 'https://status.example/incidents/INC-7', openedAt: '2026-12-01T10:00:00.000Z' };
const inc8 = { id: 'INC-8', url: 'https://status.example/incidents/INC-8', openedAt: '2026-12-01T11:00:00.000Z' };
const commanders = ['group:default/incident-commanders'];

describe('IncidentNotice', () => {
  it.each<[string, StageIncidentGate, string]>([
    ['block mode', { mode: 'block', commanders, incidents: [inc7] }, 'Incident INC-7 open: promotions into prod are blocked until resolved'],
    [
      'approval mode',
      { mode: 'approval', commanders, incidents: [inc7] },
      "Incident INC-7 open: promotions into prod also need an incident commander's approval (incident-commanders)",
    ],
    ['two incidents', { mode: 'block', commanders, incidents: [inc7, inc8] }, 'Incidents INC-7, INC-8 open: promotions into prod are blocked until resolved'],
  ])('says what %s asks of the stage', (_case, gate, text) => {
    render(<IncidentNotice stage="prod" gate={gate} />);
    expect(screen.getByTestId('incident-prod')).toHaveTextContent(text);
  });

  it('links each incident to its page', () => {
    render(<IncidentNotice stage="prod" gate={{ mode: 'block', commanders, incidents: [inc7, inc8] }} />);
    expect(screen.getByRole('link', { name: 'INC-7' })).toHaveAttribute('href', inc7.url);
    expect(screen.getByRole('link', { name: 'INC-8' })).toHaveAttribute('href', inc8.url);
  });
});
