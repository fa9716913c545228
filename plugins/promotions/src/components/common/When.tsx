const FORMAT: Intl.DateTimeFormatOptions = {
  dateStyle: 'medium',
  timeStyle: 'short',
};

/** A moment as people read it ("Nov 30, 2026, 9:26 PM"); the exact time on hover. */
export const When = (props: { date: string }) => (
  <time dateTime={props.date} title={props.date}>
    {new Date(props.date).toLocaleString(undefined, FORMAT)}
  </time>
);
