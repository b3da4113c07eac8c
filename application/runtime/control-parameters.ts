// The gateway's own parameters of every Destructive tool (the confirm flow in confirm.ts); the registry adds
// them to those tools' input schemas.

/** The parameters every Destructive tool accepts besides its own. */
export const CONTROL_PARAMETERS = {
  dry_run: {
    type: 'boolean',
    description: 'Only show what the call would remove (nothing changes), with a confirm_token for the real call.',
  },
  confirm_token: {
    type: 'string',
    maxLength: 512,
    description:
      'The token from a dry run or a 428 CONFIRMATION_REQUIRED answer for exactly this call (same arguments), when the gateway requires confirmation. Valid 5 minutes, once.',
  },
} as const;
