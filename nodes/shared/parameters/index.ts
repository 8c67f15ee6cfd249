/**
 * Parameters: reading and checking a parameter before anything is sent to the API.
 *
 *   validation.ts      the checks and their message
 *   listParameters.ts  IDs and lists of IDs or texts
 *   lists.ts           a list parameter split into entries
 *   dates.ts           a date parameter read in the workflow's time zone
 */
export * from './validation';
export * from './listParameters';
export * from './lists';
export * from './dates';
