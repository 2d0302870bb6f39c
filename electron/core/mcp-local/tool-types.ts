import type { z } from 'zod';
import type { ConsentCategory } from './consent';
import type { ToolContext } from './context';

/**
 * What a tool answers: its structured value and how many rows of the school's data it holds (for
 * the log).
 */
export interface ToolAnswer {
  readonly value: Record<string, unknown>;
  readonly rows: number;
}

/**
 * One tool of the local server. `category` decides whether it is listed (some school allows it) and
 * which schools it reads; null: it reads nothing of a school's data beyond names and freshness.
 */
export interface LocalTool<I extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly category: ConsentCategory | null;
  /** Further switches the tool needs besides its category (the one write: allowMarkRead). */
  readonly needs?: 'allowMarkRead';
  readonly input: I;
  readonly output: z.ZodObject;
  readonly readOnly: boolean;
  run(ctx: ToolContext, args: z.output<I>): ToolAnswer | Promise<ToolAnswer>;
}

/** Declares a tool with its input type inferred from its schema. */
export const defineTool = <I extends z.ZodObject>(tool: LocalTool<I>): LocalTool =>
  tool as unknown as LocalTool;
