import type { ReactNode } from 'react';

/** What a confirmation asks (useConfirm), shared by the provider and its on-demand dialog. */
export interface ConfirmOptions {
  title: string;
  message: ReactNode;
  acceptLabel?: string;
  rejectLabel?: string;
  /** A modal dialog blocks the page behind it; true unless said otherwise. */
  modal?: boolean;
  /** Colour of the accept button, e.g. 'red' for something that cannot be undone. */
  acceptPalette?: string;
}
