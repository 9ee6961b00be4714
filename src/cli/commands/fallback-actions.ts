/** The actions of `node-check fallback`, apart from the command so that the parser does not load it. */
export const FALLBACK_ACTIONS = ['status', 'apply', 'revert'] as const;
