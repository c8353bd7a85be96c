import { useTranslation } from 'react-i18next';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { errorText } from '@/lib/error-text';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { LocalLink } from '@/shared/site/local-link';
import { useBlockedProfiles, useUnblock } from '../api/profile';

/** Settings: the members I blocked, each with Unblock (no question asked, as on their page). */
export function BlockedMembers() {
  const { t } = useTranslation();
  const toast = useToast();
  const blocked = useBlockedProfiles();
  const unblock = useUnblock();
  const list = blocked.data;
  return (
    <Card title={t('settings.blocked.title')} className="mb-4" testId="settings-blocked">
      <p>{t('settings.blocked.intro')}</p>
      {blocked.error ? (
        <p className="alert alert-danger mb-0" role="alert">
          {errorText(t, blocked.error)}
        </p>
      ) : !list ? (
        <SkeletonRegion label={t('common.loading')}>
          <SkeletonText lines={2} />
        </SkeletonRegion>
      ) : list.length === 0 ? (
        <p className="text-body-secondary mb-0" data-testid="blocked-empty">
          {t('settings.blocked.empty')}
        </p>
      ) : (
        <ul className="list-unstyled mb-0" data-testid="blocked-list">
          {list.map((profile) => {
            // A member I can no longer see comes without name or photo: only the id to unblock them.
            const hidden = 'hidden' in profile;
            const name = hidden ? t('settings.blocked.hiddenMember') : profile.name;
            const person = (
              <>
                <Avatar name={name} src={hidden ? null : profile.thumb_url} />
                <span className={hidden ? 'fst-italic' : 'fw-semibold'}>{name}</span>
                {profile.is_fictional && <FictionalIcon size={16} />}
              </>
            );
            return (
              <li
                key={profile.id}
                className="d-flex align-items-center gap-3 py-2 border-top"
                data-testid="blocked-member"
                data-profile-id={profile.id}
              >
                {hidden ? (
                  <span className="d-flex align-items-center gap-2 me-auto">{person}</span>
                ) : (
                  <LocalLink to={`/members/${profile.id}`} className="d-flex align-items-center gap-2 text-reset me-auto">
                    {person}
                  </LocalLink>
                )}
                <Button
                  variant="outline-dark"
                  size="sm"
                  aria-label={hidden ? t('settings.blocked.unblockHiddenLabel') : t('settings.blocked.unblockLabel', { name })}
                  isLoading={unblock.isPending && unblock.variables === profile.id}
                  onClick={() =>
                    unblock.mutate(profile.id, {
                      onSuccess: () => toast.show(hidden ? t('settings.blocked.unblockHiddenDone') : t('member.unblockDone', { name })),
                      onError: (error) => toast.show({ message: errorText(t, error), variant: 'danger' }),
                    })
                  }
                >
                  {t('member.unblock')}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
