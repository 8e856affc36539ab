// Spec section 4: a tree on every second message the user has sent (the count is even), and the
// upgrade prompt when a non-premium user reaches exactly 5. The count rides on the ending event.
export const FREE_PROMPT_AT = 5

export function afterSend(
  userMessageCount: number | undefined,
  isPremium: boolean,
): { plantTree: boolean; showUpgrade: boolean } {
  if (userMessageCount === undefined || userMessageCount <= 0) return { plantTree: false, showUpgrade: false }
  return {
    plantTree: userMessageCount % 2 === 0,
    showUpgrade: userMessageCount === FREE_PROMPT_AT && !isPremium,
  }
}
