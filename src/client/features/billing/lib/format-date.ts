/** 'January 22, 2026': the long form the account page uses for dates. */
export function formatDate(value: string | number | Date): string {
  return new Date(value).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
}
