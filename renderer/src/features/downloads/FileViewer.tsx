import { useTranslation } from 'react-i18next';
import type { OpenOutcome } from '../../../../electron/common/downloads';
import { CopyButton } from '../../ui/CopyButton';
import { Dialog } from '../../ui/Dialog';

/**
 * A saved file opened inside the app. The address is the app's own (`/saved-files/...`, app:// in
 * Electron, the browser host's loopback origin), answered from the saved copy with no network: a
 * PDF in Chromium's viewer, an image, audio or video with the browser's own controls. A type the
 * app does not open is located instead.
 */
export function FileViewer({
  outcome,
  title,
  onClose,
}: {
  readonly outcome: OpenOutcome | null;
  readonly title: string;
  readonly onClose: () => void;
}) {
  const { t } = useTranslation();
  if (outcome?.kind === 'located') {
    return (
      <Dialog
        open
        title={t('downloads.locatedTitle', { name: title })}
        onClose={onClose}
        testId="file-located"
      >
        <p>{t('downloads.located')}</p>
        <p>
          <code className="file-path">{outcome.path}</code>
        </p>
        <div className="row dialog-actions">
          <CopyButton text={outcome.path} label={t('downloads.copyPath')} />
          <button type="button" className="button" onClick={onClose}>
            {t('downloads.viewerClose')}
          </button>
        </div>
      </Dialog>
    );
  }
  const view = outcome?.kind === 'view' ? outcome : null;
  return (
    <Dialog open={view !== null} title={title} onClose={onClose} testId="file-viewer">
      {view && (
        <div
          className={`file-viewer file-viewer-${view.viewAs}`}
          data-testid="file-viewer-body"
          data-view-as={view.viewAs}
        >
          {view.viewAs === 'pdf' && (
            <iframe src={view.url} title={t('downloads.viewerPdf', { name: view.name })} />
          )}
          {view.viewAs === 'image' && <img src={view.url} alt={title} />}
          {view.viewAs === 'audio' && <audio src={view.url} controls aria-label={title} />}
          {view.viewAs === 'video' && <video src={view.url} controls aria-label={title} />}
        </div>
      )}
      <div className="row dialog-actions">
        <button type="button" className="button" onClick={onClose} data-testid="file-viewer-close">
          {t('downloads.viewerClose')}
        </button>
      </div>
    </Dialog>
  );
}
