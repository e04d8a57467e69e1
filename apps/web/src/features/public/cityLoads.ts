/** Loads shown on a city or lane page; guests sign in for the rest. */
export const CITY_LOADS_LIMIT = 10;
/** Pickup radius around the city centre, km (one of RADIUS_OPTIONS_KM): the city and its industrial areas. */
export const CITY_RADIUS_KM = 50;
