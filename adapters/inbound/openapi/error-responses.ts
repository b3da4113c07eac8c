// The error answer every /v1 endpoint shares ({"success": false, "error": {...}}), as OpenAPI responses.

const errorBody = {
  'application/json': {
    schema: {
      type: 'object',
      properties: {
        success: { const: false },
        error: {
          type: 'object',
          properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
        },
      },
    },
  },
};

/** The responses for these error statuses, each with the shared error body. */
export const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { description: `Error ${s}.`, content: errorBody }]));
