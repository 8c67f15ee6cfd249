/**
 * Parameters: one way to read a parameter, check it before anything is sent to the API, and show
 * a value in a message, for the action node, the trigger, the editor's methods and the request
 * policy (../requestPolicy.ts) alike; the API layer and the request path read none. Every check
 * takes the n8n context it runs in (execute, poll or load options), the item index where there is
 * one (undefined in a poll or an editor lookup), the field's display name and the value, and
 * throws the one message of message.ts.
 *
 *   message.ts   the message of a value that fails its check (item, field, expected, got, what to do)
 *   text.ts      text: trimmed, within a length, on one line; whether an optional one was given
 *   numbers.ts   numbers and whole numbers within a range; the range in words
 *   choices.ts   true/false, one of the values offered
 *   json.ts      a JSON object or array, as text or as a value
 *   urls.ts      an https URL the service will call (a Callback URL, n8n's resume URL), judged on the parsed URL; how the service could reach a URL it calls back (callbackReach)
 *   dates.ts     a date and time, read in the workflow's time zone, as the API's ISO text
 *   ids.ts       UUIDs, 24-hex IDs and lists of them
 *   lists.ts     a list as an array or as text split at a separator
 *
 *   read.ts      a parameter read in any context (`readParameter`: the trigger, the request policy;
 *                an operation hands this.getNodeParameter(...) straight to its check)
 *
 * Showing: `shown` and `printable` live in credentials/shown.ts, since the credential shows values too and
 * credentials/ imports nothing from nodes/.
 *
 * Layer rule: this module imports only n8n-workflow, luxon, credentials/, run/context.ts and the
 * ID forms (../ids.ts), never the API layer's entry, the request path or the run scope, so that
 * every layer above the API layer can check through it without an import circle.
 */
export { readParameter } from './read';
export { printable, shown } from '../../../credentials/shown';
export { invalidParameter } from './message';
export { given, optionalText, requireText, textOf } from './text';
export type { NumberRange } from './numbers';
export { numberExpected, requireNumber, requirePositiveInteger } from './numbers';
export { requireBoolean, requireOneOf } from './choices';
export { requireJson } from './json';
export { callbackReach, requireHttpsUrl, requireResumeUrl } from './urls';
export { optionalTimestamp, parseDateTime, requireTimestamp } from './dates';
export { requireIdList, requireObjectId, requireUuid } from './ids';
export { COMMA_OR_NEW_LINE, NEW_LINE, requireTextList, splitList } from './lists';
