/**
 * Whether a callback's news is true, and whether it has been handled: the one verifier both
 * callback paths use (Upload's wait, the Callback Trigger; docs/dev/callback-wait.md). A callback
 * is a hint: its body is read for three fields (body.ts), the API is asked for the upload's status
 * (nodes/shared/uploadStatus.ts reads it), the claims and answers one process keeps bound what any
 * caller can cost (memory.ts), and every call is answered from one set (answers.ts).
 */
export type { Answerable } from './answers';
export { RETRY_LATER, answerCall } from './answers';
export type { CallbackHint, CallbackNotice, ReadCallback, ReadNotice } from './body';
export { isIntermediate, readCallback, readNotice } from './body';
export type { Verdict } from './memory';
export { CallbackScope, scopeOf } from './memory';
export type { ClaimOutcome, ClaimTarget } from './claim';
export { claimAcrossProcesses } from './claim';
