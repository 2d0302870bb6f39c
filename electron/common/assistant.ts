/**
 * The student's own AI assistant (Settings > AI assistant, the "AI activity" view): what the
 * screens see of the local MCP server's consent, connections and activity. Types and names only
 * (the renderer imports them).
 */

/** The kinds of data a school's consent covers, in the order the settings screen lists them. */
export const ASSISTANT_CATEGORIES = [
  'courses',
  'dates',
  'notifications',
  'products',
  'purchases',
  'profile',
] as const;
export type AssistantCategory = (typeof ASSISTANT_CATEGORIES)[number];

/** The clients the app connects in one step. */
export const ASSISTANT_CLIENTS = ['claude-desktop', 'vscode', 'cursor'] as const;
export type AssistantClientId = (typeof ASSISTANT_CLIENTS)[number];

export interface AssistantSchoolView {
  readonly siteId: string;
  readonly label: string;
  readonly enabled: boolean;
  readonly categories: Readonly<Record<AssistantCategory, boolean>>;
}

/**
 * What a connection check found (doctor/assistant-connection.ts); the screen words each finding.
 */
export const ASSISTANT_FINDINGS = [
  'ok',
  'featureOff',
  'surfaceChanged',
  'neverSynced',
  'noSchoolAllowed',
  'notConnected',
  'configUnreadable',
  'wrongPath',
  'otherCommand',
] as const;
export type AssistantFinding = (typeof ASSISTANT_FINDINGS)[number];

export interface AssistantCheck {
  /** null: the feature itself; else the client whose file was read. */
  readonly client: AssistantClientId | null;
  readonly status: 'ok' | 'warning' | 'problem';
  readonly finding: AssistantFinding;
  /** A file or command the finding is about (shown as is). */
  readonly detail: string | null;
}

export interface AssistantClientView {
  readonly client: AssistantClientId;
  readonly path: string;
  readonly connected: boolean;
}

export interface AssistantView {
  readonly enabled: boolean;
  readonly cloudAcknowledged: boolean;
  /** On, but this version offers more than the student agreed to: asked again. */
  readonly surfaceChanged: boolean;
  readonly fullPaymentCodes: boolean;
  readonly allowMarkRead: boolean;
  readonly schools: readonly AssistantSchoolView[];
  /** How a client starts the server (shown, and written by the connect buttons). */
  readonly launch: { readonly command: string; readonly args: readonly string[] };
  readonly clients: readonly AssistantClientView[];
  readonly checks: readonly AssistantCheck[];
}

export interface AssistantConnectPreview {
  readonly client: AssistantClientId;
  readonly path: string;
  readonly json: string;
  readonly entry: string;
  readonly command: string | null;
  readonly fileExists: boolean;
  readonly connected: boolean;
}

/** The Claude Desktop bundle (.mcpb) as it will be written: its name, manifest and files. */
export interface AssistantBundlePreview {
  readonly fileName: string;
  readonly manifest: string;
  readonly files: readonly string[];
}

export interface AssistantActivityView {
  readonly at: string;
  readonly client: string;
  readonly kind: 'tool' | 'resource' | 'prompt';
  readonly name: string;
  readonly args: Readonly<Record<string, string | number | boolean>>;
  readonly rows: number;
  readonly outcome: 'ok' | 'refused' | 'error';
  readonly ms: number;
}

/** An assistant's request waiting for the student: mark these notices of a school read. */
export interface AssistantRequestView {
  readonly id: string;
  readonly at: string;
  readonly client: string;
  readonly siteId: string;
  readonly schoolLabel: string;
  readonly notices: readonly { readonly id: string; readonly title: string }[];
}
