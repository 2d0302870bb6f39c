import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** What to show instead of the children once one of them threw while rendering. */
  readonly fallback: (error: unknown, reset: () => void) => ReactNode;
  /** The boundary starts over when this changes (another screen, another site). */
  readonly resetKey?: string;
  /**
   * The area it guards, for the console line (never the site's data: the error's message may quote
   * it).
   */
  readonly area: string;
  readonly children: ReactNode;
}

interface State {
  readonly error: unknown;
  readonly failed: boolean;
  readonly resetKey: string | undefined;
}

/**
 * React's error boundary (https://react.dev/reference/react/Component#catching-rendering-errors-with-an-error-boundary):
 * a render that throws below it shows `fallback` instead of unmounting the whole window. Data from
 * a site is untrusted input; the screens are written not to throw on it, and this is the net under
 * them.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey
      ? { error: null, failed: false, resetKey: props.resetKey }
      : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const name = error instanceof Error ? error.name : typeof error;
    console.error(
      `[${this.props.area}] a part of the window could not be shown (${name})`,
      info.componentStack ?? '',
    );
  }

  private readonly reset = (): void => this.setState({ error: null, failed: false });

  override render(): ReactNode {
    return this.state.failed
      ? this.props.fallback(this.state.error, this.reset)
      : this.props.children;
  }
}
