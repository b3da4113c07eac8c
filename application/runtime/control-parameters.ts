// The gateway's own parameters of every Destructive tool (the confirm flow in confirm.ts); the registry adds
// them to those tools' input schemas.

/** The parameters every Destructive tool accepts besides its own. */
export const CONTROL_PARAMETERS = {
  dry_run: {
    type: 'boolean',
    description: 'Preview what would go, with a confirm_token.',
  },
  confirm_token: {
    type: 'string',
    maxLength: 512,
    description: 'From a preview of this same call (once, within 5 minutes).',
  },
} as const;
