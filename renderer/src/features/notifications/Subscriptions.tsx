import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { NotificationSubscriptionView } from '../../../../electron/common/view-models';
import { useChannelMutation } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { CHANNELS, TOPICS } from './labels';

/**
 * Topic × channel toggles. Changes go through the outbox, so they work offline and show as pending.
 */
export function Subscriptions({
  siteId,
  subscriptions,
}: {
  readonly siteId: string;
  readonly subscriptions: readonly NotificationSubscriptionView[];
}) {
  const { t } = useTranslation();
  const update = useChannelMutation('notifications:update-subscription');
  const find = (topic: string, channel: string) =>
    subscriptions.find((s) => s.topic === topic && s.channel === channel);
  return (
    <section
      id="subscriptions-panel"
      aria-labelledby="subs-title"
      className="card subscriptions"
      data-testid="subscriptions"
    >
      <h2 id="subs-title">{t('notifications.subscriptions.title')}</h2>
      <p className="muted small">{t('notifications.subscriptions.intro')}</p>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">{t('notifications.subscriptions.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('notifications.subscriptions.topic')}</th>
              {CHANNELS.map((c) => (
                <th scope="col" key={c}>
                  {t(`notifications.channel.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {TOPICS.map((topic) => (
              <tr key={topic}>
                <th scope="row">{t(`notifications.topic.${topic}`)}</th>
                {CHANNELS.map((channel) => {
                  const sub = find(topic, channel);
                  return (
                    <td key={channel}>
                      <label className="toggle">
                        <input
                          type="checkbox"
                          checked={sub?.enabled ?? false}
                          disabled={!sub || update.isPending}
                          onChange={(e) =>
                            update.mutate({ siteId, topic, channel, enabled: e.target.checked })
                          }
                          aria-label={t('notifications.subscriptions.toggleLabel', {
                            topic: t(`notifications.topic.${topic}`),
                            channel: t(`notifications.channel.${channel}`),
                          })}
                        />
                        {sub?.pendingSync && (
                          <span className="small pending-sync">
                            <RefreshCw aria-hidden="true" />
                            {t('notifications.pendingSync')}
                          </span>
                        )}
                      </label>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {update.error && <ErrorState error={update.error} compact />}
    </section>
  );
}
