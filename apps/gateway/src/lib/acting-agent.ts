// The acting agent at the HTTP edge of services that check it themselves (the market).

/** A party field: absent → "" (the market defaults it to the acting agent). */
export const partyFromJson = (agentId: string | undefined): string => agentId ?? '';
