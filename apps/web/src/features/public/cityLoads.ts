/** Loads shown on a city or lane page; guests sign in for the rest. */
export const CITY_LOADS_LIMIT = 10;
/** The city and lane pages' board query beside the place: newest first, with the count in the same request (`count=true`: they show how many; issue 45). */
export const CITY_LOADS_QUERY = { limit: CITY_LOADS_LIMIT, sort: 'newest', count: 'true' } as const;
/** Pickup radius around the city centre, km (one of RADIUS_OPTIONS_KM): the city and its industrial areas. */
export const CITY_RADIUS_KM = 50;
