/** Text made safe to place in the simulator's HTML pages. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, char => `&#${char.charCodeAt(0)};`);
}
