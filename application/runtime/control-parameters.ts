// The gateway's own parameters of every Destructive tool (the confirm flow in confirm.ts); the registry adds
// them to those tools' input schemas.

/** The parameters every Destructive tool accepts besides its own. */
export const CONTROL_PARAMETERS = {
  dry_run: {
    type: 'boolean',
    description: 'Only preview what would go, and get a confirm_token.',
  },
  confirm_token: {
    type: 'string',
    maxLength: 512,
    description: 'From a dry run or 428 answer to this exact call (5 minutes, once).',
  },
} as const;
