import { Type } from '@sinclair/typebox';

/**
 * The error body every route answers with (`{"detail": "..."}`, shaped by the kernel's error handler), registered
 * once by `registerHttpKernel` so any module's routes can refer to it whatever order they are registered in.
 */
export const Problem = Type.Object({ detail: Type.String() }, { $id: 'Problem' });

/** Route `response` entries for the given error statuses, each the shared `Problem` body. */
export const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, Type.Ref(Problem)]));
