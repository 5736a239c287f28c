import { Type } from '@sinclair/typebox';

/** The error body of these routes: `detail`, and the rule a separation-of-duties refusal names. */
export const Problem = Type.Object({
  detail: Type.String(),
  rule: Type.Optional(Type.String({ description: 'The separation-of-duties rule a refusal names' })),
});
export const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, Problem]));
