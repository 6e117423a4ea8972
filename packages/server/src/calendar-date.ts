/** Whether `text` is a real calendar day as `YYYY-MM-DD`: `2027-02-28` yes; `2027-02-30`, `2027-2-3` and `2027-02-28T00:00` no. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}
