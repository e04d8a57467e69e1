import type { Language } from '@masar/shared';

/*
 * The notification e-mail (issue 21; docs/notifications.md): one message per (user, category)
 * batch, in the user's language — a subject naming the category and a plain-text list of what
 * happened, each with its shipment reference and a link to its screen. The in-app text is
 * rendered by the web (namespace `notifications`); this is the short e-mail wording.
 */

export const CATEGORY: Record<string, Record<Language, string>> = {
  offers: { en: 'Offers', ar: 'العروض' },
  shipments: { en: 'Shipments', ar: 'الشحنات' },
  bayan: { en: 'Bayan', ar: 'بيان' },
  trips: { en: 'Trips', ar: 'الرحلات' },
  tenders: { en: 'Tenders', ar: 'الطرح' },
  rates: { en: 'Rates', ar: 'الأسعار' },
  account: { en: 'Account', ar: 'الحساب' },
  billing: { en: 'Billing', ar: 'الفوترة' },
};

/** The short text of each notification type (the e-mail lines and the push titles). */
export const WHAT: Record<string, Record<Language, string>> = {
  'offer.created': { en: 'New offer', ar: 'عرض جديد' },
  'offer.countered': { en: 'Counter offer', ar: 'عرض مضاد' },
  'offer.accepted': { en: 'Offer accepted', ar: 'تم قبول العرض' },
  'offer.rejected': { en: 'Offer rejected', ar: 'تم رفض العرض' },
  'offer.closed': { en: 'Bidding closed', ar: 'أُغلقت المزايدة' },
  'load.cancelled': { en: 'Shipment cancelled', ar: 'تم إلغاء الشحنة' },
  'load.bayan_cancelled': { en: 'Shipment cancelled (Bayan)', ar: 'تم إلغاء الشحنة (بيان)' },
  'load.assigned': { en: 'Vehicle and driver assigned', ar: 'تم تعيين المركبة والسائق' },
  'load.payment_received': { en: 'Payment recorded as received', ar: 'تم تسجيل استلام الدفعة' },
  'load.bayan_created': { en: 'Bayan waybill created', ar: 'تم إنشاء بوليصة بيان' },
  'load.bayan_closed': { en: 'Bayan closed: shipment completed', ar: 'تم إغلاق بيان: اكتملت الشحنة' },
  'load.bayan_failed': { en: 'Bayan failed: action needed', ar: 'فشل بيان: مطلوب إجراء' },
  'trip.step': { en: 'Trip update', ar: 'تحديث الرحلة' },
  'trip.proof_flagged': { en: 'Proof flagged', ar: 'تم تمييز إثبات للمراجعة' },
  'tender.invited': { en: 'Invited to a tender', ar: 'دعوة إلى طرح' },
  'tender.invite_awarded': { en: 'Tender awarded to you', ar: 'تمت ترسية الطرح عليك' },
  'tender.invite_closed': { en: 'Tender bidding closed', ar: 'أُغلق الطرح' },
  'tender.closed': { en: 'Tender closed', ar: 'أُغلق الطرح' },
  'call.missed': { en: 'Missed call', ar: 'مكالمة فائتة' },
  'account.approved': { en: 'Account approved', ar: 'تمت الموافقة على الحساب' },
  'account.rejected': { en: 'Documents rejected', ar: 'تم رفض المستندات' },
  'account.suspended': { en: 'Account suspended', ar: 'تم إيقاف الحساب' },
  'team.member_joined': { en: 'A team member joined', ar: 'انضم عضو إلى الفريق' },
  'subscription.renewed': { en: 'Plan renewed', ar: 'تم تجديد الباقة' },
  'subscription.past_due': { en: 'Plan payment past due', ar: 'دفعة الباقة متأخرة' },
  'subscription.expired': { en: 'Plan expired', ar: 'انتهت الباقة' },
};

export interface EmailItem {
  type: string;
  referenceId: string | null;
  link: string;
}

/**
 * Subject and plain-text body of one batch. `publicUrl` is prefixed to each link
 * (PUBLIC_URL, without a trailing slash). Unknown types fall back to the category name.
 */
export function notificationEmail(category: string, items: EmailItem[], lang: Language, publicUrl: string): { subject: string; text: string } {
  const cat = CATEGORY[category]?.[lang] ?? category;
  const subject =
    items.length === 1
      ? `${lang === 'ar' ? 'مسار' : 'Masar'}: ${WHAT[items[0].type]?.[lang] ?? cat}${items[0].referenceId ? ` — ${items[0].referenceId}` : ''}`
      : lang === 'ar'
        ? `مسار: ${items.length} إشعارات جديدة — ${cat}`
        : `Masar: ${items.length} new notifications — ${cat}`;
  const lines = items.map((i) => `• ${WHAT[i.type]?.[lang] ?? cat}${i.referenceId ? ` — ${i.referenceId}` : ''}\n  ${publicUrl}${i.link}`);
  const footer =
    lang === 'ar'
      ? 'يمكنك تغيير الإشعارات التي تصلك بالبريد من إعدادات حسابك.'
      : 'You can change which notifications reach you by e-mail in your account settings.';
  return { subject, text: `${lines.join('\n')}\n\n${footer}\n` };
}
