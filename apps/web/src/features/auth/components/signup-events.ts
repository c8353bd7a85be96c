/** Window events around a signup (spec §4): the modal cannot be closed between them. */
export const SIGNUP_STARTED = 'signup-started';
export const SIGNUP_FLOW_COMPLETE = 'signup-flow-complete';
