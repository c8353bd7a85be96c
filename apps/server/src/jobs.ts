import type { AppContext } from './context';
import { type AppJobName, type AppJobs, JOBS } from './job-specs';
import type { JobHandlers, Jobs } from './lib/jobs';
import { sendMailing } from './modules/campaigns/campaigns.service';
import { expireExports, prepareExport } from './modules/data-export/data-export.service';
import { purgeDeletedAccounts } from './modules/deletion/deletion.service';
import { forgetAbandonedForms } from './modules/directdebit/directdebit.service';
import { readMailReportsFolder } from './modules/mail/mail-reports.folder';
import { endRunOutSuspensions } from './modules/moderation/moderation.service';
import { sendActivityMail } from './modules/notifications/activity-mail.service';
import { remindOfUnread } from './modules/notifications/unread-reminder.service';
import { checkOrder } from './modules/payments/order-status.service';
import type { SandboxJobs } from './modules/payments/sandbox/sandbox.service';
import { notifyByPush, pruneSubscriptions } from './modules/push/push.service';
import { remindToCompleteProfile, remindToConfirm, sendWeeklyUpdates } from './modules/reminders/reminders.service';
import { rebuildReportRollup } from './modules/reports/rollup.service';
import { smsOf } from './modules/sms/sms.service';

interface Log {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

/** Jobs only a process with the payment sandbox mounted handles (no other enqueues them). */
const SANDBOX_JOBS: AppJobName[] = ['sandbox.webhook', 'sandbox.settle', 'sandbox.chargeback', 'sandbox.expire'];

/**
 * The handler of every job in job-specs.ts: the only place that calls `jobs.handle` (registries.test.ts checks
 * it). `sandbox`: the mounted sandbox's jobs (null where the sandbox is not mounted, and its code not loaded).
 */
export function jobHandlers(ctx: AppContext, log: Log, sandbox: SandboxJobs | null): JobHandlers<AppJobs> {
  const noSandbox = async () => {
    throw new Error('the payment sandbox is not mounted in this process');
  };
  return {
    'mail.send': ({ outboxId }) => ctx.mailer.deliver(outboxId),
    'mail.read-reports': async () => {
      const counts = await readMailReportsFolder(ctx);
      if (Object.keys(counts).length > 0) log.info({ counts }, 'read mail reports from MAIL_REPORTS_DIR');
    },
    'sms.send': (payload) => smsOf(ctx, log).deliver(payload),
    'payments.check': (payload) => checkOrder(ctx, payload),
    'directdebit.forget': () => forgetAbandonedForms(ctx),
    'notifications.mail': ({ userId }) => sendActivityMail(ctx, userId),
    'notifications.remind': async () => {
      const count = await remindOfUnread(ctx);
      if (count > 0) log.info({ count }, 'reminded members of unread messages');
    },
    'reminders.confirm-address': async () => {
      const count = await remindToConfirm(ctx);
      if (count > 0) log.info({ count }, 'reminded members to confirm their address');
    },
    'reminders.complete-profile': async () => {
      const count = await remindToCompleteProfile(ctx);
      if (count > 0) log.info({ count }, 'reminded members to add a photo');
    },
    'reminders.weekly-update': async () => {
      const count = await sendWeeklyUpdates(ctx);
      if (count > 0) log.info({ count }, 'sent weekly updates');
    },
    'moderation.end-suspensions': async () => {
      const count = await endRunOutSuspensions(ctx);
      if (count > 0) log.info({ count }, 'showed the profiles of members whose suspension ran out');
    },
    'campaigns.send': (payload) => sendMailing(ctx, payload),
    'push.notify': (payload) => notifyByPush(ctx, payload),
    'push.prune': async () => {
      const count = await pruneSubscriptions(ctx);
      if (count > 0) log.info({ count }, 'dropped push subscriptions unseen for 60 days');
    },
    'accounts.purge': async () => {
      const count = await purgeDeletedAccounts(ctx);
      if (count > 0) log.info({ count }, 'purged deleted accounts');
    },
    'data-export.prepare': ({ exportId }) => prepareExport(ctx, exportId),
    'data-export.expire': async () => {
      const count = await expireExports(ctx);
      if (count > 0) log.info({ count }, 'removed expired data exports');
    },
    'reports.rollup': async () => {
      const result = await rebuildReportRollup(ctx);
      if (result.rebuilt) log.info(result, "rebuilt the business reports' rollup");
    },
    'sandbox.webhook': sandbox?.webhook ?? noSandbox,
    'sandbox.settle': sandbox?.settle ?? noSandbox,
    'sandbox.chargeback': sandbox?.chargeback ?? noSandbox,
    'sandbox.expire': sandbox?.expire ?? noSandbox,
  };
}

/**
 * Registers the jobs' handlers with `jobs` (the context's worker, or a test's second one), before its worker starts:
 * every job of job-specs.ts (`only`: these alone), the sandbox's only where it is mounted (`sandbox` given, by
 * app.ts when config.payments.sandbox is on). Recurring jobs (`everyMs`) are then started by the worker.
 */
export function registerJobs(
  jobs: Jobs<AppJobs>,
  deps: { ctx: AppContext; log: Log; sandbox?: SandboxJobs | null },
  only?: readonly AppJobName[],
): void {
  const sandbox = deps.sandbox ?? null;
  const handlers = jobHandlers(deps.ctx, deps.log, sandbox);
  for (const name of Object.keys(JOBS) as AppJobName[]) {
    if (only && !only.includes(name)) continue;
    if (!sandbox && SANDBOX_JOBS.includes(name)) continue;
    jobs.handle(name, handlers[name] as (payload: unknown) => Promise<void>);
  }
}
