import type { Language } from './constants.ts';
import { localizeNumbers, type DigitSystem } from './digits.ts';

/**
 * The error catalogue (spec §8): every error the API returns has a stable `code`, an HTTP
 * status and a message in English and Arabic. The server's error handler answers
 * `{ message, code, errors? }` with `message` in the request's `language`; the web client may
 * show `message` as is or look the code up here.
 */
export const ERRORS = {
  VALIDATION_FAILED: { status: 400, en: 'Please fill out all required fields correctly.', ar: 'يرجى تعبئة جميع الحقول المطلوبة بشكل صحيح.' },
  BAD_REQUEST: { status: 400, en: 'The request is not valid.', ar: 'الطلب غير صالح.' },
  INVALID_JSON: { status: 400, en: 'The request body is not valid JSON.', ar: 'محتوى الطلب ليس JSON صالحاً.' },
  BAD_URL: { status: 400, en: 'The address of the request is malformed.', ar: 'عنوان الطلب غير صحيح الصياغة.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    en: 'This content type is not supported here. Send JSON (application/json).',
    ar: 'نوع المحتوى هذا غير مدعوم هنا. أرسل JSON (application/json).',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    en: 'This Idempotency-Key was already used with a different request.',
    ar: 'استُخدم مفتاح عدم التكرار هذا مسبقاً مع طلب مختلف.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    en: 'A request with this Idempotency-Key is still being processed. Try again in a moment.',
    ar: 'ما زال طلب بمفتاح عدم التكرار هذا قيد المعالجة. حاول بعد لحظات.',
  },
  INVALID_IDEMPOTENCY_KEY: {
    status: 400,
    en: 'The Idempotency-Key header must be {1} to {255} visible characters.',
    ar: 'يجب أن يتكون ترويسة مفتاح عدم التكرار من {1} إلى {255} رمزاً مرئياً.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, en: 'The request is too large.', ar: 'حجم الطلب كبير جداً.' },
  UNAUTHORIZED: { status: 401, en: 'Invalid token. Please sign in again.', ar: 'رمز الدخول غير صالح. يرجى تسجيل الدخول مرة أخرى.' },
  TOKEN_EXPIRED: { status: 406, en: 'Access token expired; regenerate it.', ar: 'انتهت صلاحية رمز الدخول؛ يرجى تجديده.' },
  TOKEN_STILL_VALID: { status: 200, en: '407: the access token is still valid; keep it.', ar: '407: رمز الدخول ما زال صالحاً؛ احتفظ به.' },
  NOT_SIGNED_IN: { status: 401, en: 'You are not signed in.', ar: 'أنت لم تسجل الدخول.' },
  API_KEY_INVALID: { status: 401, en: 'This API key is not valid or was revoked.', ar: 'مفتاح الواجهة البرمجية هذا غير صالح أو أُلغي.' },
  API_KEY_SCOPE: {
    status: 403,
    en: 'This API key does not allow this action. Give it the scope in your account.',
    ar: 'مفتاح الواجهة البرمجية هذا لا يسمح بهذا الإجراء. امنحه الصلاحية من حسابك.',
  },
  API_KEY_NOT_ALLOWED: {
    status: 403,
    en: 'This action needs you to sign in; an API key cannot do it.',
    ar: 'هذا الإجراء يتطلب تسجيل الدخول؛ لا يمكن تنفيذه بمفتاح واجهة برمجية.',
  },
  LIMIT_REACHED: {
    status: 409,
    en: 'You have reached the limit for these. Remove one you no longer use first.',
    ar: 'وصلت إلى الحد الأقصى لهذه العناصر. احذف عنصراً لم تعد تستخدمه أولاً.',
  },
  FORBIDDEN: { status: 403, en: 'You are not allowed to do this.', ar: 'غير مسموح لك بهذا الإجراء.' },
  ACCOUNT_NOT_APPROVED: {
    status: 403,
    en: 'Your account is not approved yet. You can browse, but posting, bidding and booking need approval.',
    ar: 'لم تتم الموافقة على حسابك بعد. يمكنك التصفح، لكن النشر وتقديم العروض والحجز تتطلب الموافقة.',
  },
  PLAN_REQUIRED: { status: 403, en: 'An active plan is required for this action.', ar: 'يتطلب هذا الإجراء اشتراكاً فعّالاً.' },
  DOCUMENTS_INCOMPLETE: {
    status: 409,
    en: 'Upload every required document (and replace any rejected one) before sending them for review.',
    ar: 'ارفع جميع المستندات المطلوبة (واستبدل أي مستند مرفوض) قبل إرسالها للمراجعة.',
  },
  PLAN_ALREADY_ACTIVE: {
    status: 409,
    en: 'You already have an active plan. Cancel it before choosing another.',
    ar: 'لديك اشتراك فعّال بالفعل. ألغِه قبل اختيار اشتراك آخر.',
  },
  CHECKOUT_IN_PROGRESS: {
    status: 409,
    en: 'Another payment for a plan is in progress on this account. Finish it, or wait 15 minutes, before starting another.',
    ar: 'هناك عملية دفع أخرى لباقة قيد التنفيذ على هذا الحساب. أكملها أو انتظر 15 دقيقة قبل بدء عملية أخرى.',
  },
  PLAN_NOT_FOR_ACCOUNT: { status: 400, en: 'This plan is not for your account type.', ar: 'هذه الباقة لا تناسب نوع حسابك.' },
  TRIAL_USED: { status: 409, en: 'The free trial can be used once per account.', ar: 'يمكن استخدام التجربة المجانية مرة واحدة لكل حساب.' },
  NO_ACTIVE_PLAN: { status: 404, en: 'You have no active plan to cancel.', ar: 'ليس لديك اشتراك فعّال لإلغائه.' },
  PAYMENT_METHOD_REQUIRED: { status: 400, en: 'Choose a saved card or pay from your wallet.', ar: 'اختر بطاقة محفوظة أو ادفع من محفظتك.' },
  PAYMENT_DECLINED: { status: 402, en: 'The payment was declined. Try another card.', ar: 'تم رفض الدفع. جرّب بطاقة أخرى.' },
  PAYMENT_GATEWAY_ERROR: {
    status: 502,
    en: 'The payment provider did not answer, so the payment was not completed. Try again in a moment.',
    ar: 'لم يستجب مزود الدفع، لذلك لم تكتمل عملية الدفع. حاول مرة أخرى بعد لحظات.',
  },
  INSUFFICIENT_WALLET_BALANCE: { status: 402, en: 'Your wallet balance is too low for this payment.', ar: 'رصيد محفظتك لا يكفي لهذا الدفع.' },
  PROMO_INVALID: { status: 400, en: 'This promo code is not valid.', ar: 'رمز الخصم هذا غير صالح.' },
  PROMO_EXPIRED: { status: 400, en: 'This promo code has expired.', ar: 'انتهت صلاحية رمز الخصم هذا.' },
  PROMO_USED_UP: { status: 400, en: 'This promo code has reached its usage limit.', ar: 'بلغ رمز الخصم هذا الحد الأقصى للاستخدام.' },
  PROMO_ALREADY_USED: { status: 400, en: 'You have already used this promo code.', ar: 'لقد استخدمت رمز الخصم هذا من قبل.' },
  IDEMPOTENCY_KEY_REQUIRED: {
    status: 400,
    en: 'Payments need an Idempotency-Key header, so that a retried request never charges twice.',
    ar: 'تتطلب المدفوعات ترويسة مفتاح عدم التكرار، حتى لا يُخصم المبلغ مرتين عند إعادة الطلب.',
  },
  INTENT_NOT_PENDING: { status: 409, en: 'This payment is already finished.', ar: 'اكتملت عملية الدفع هذه بالفعل.' },
  ACCOUNT_SUSPENDED: { status: 403, en: 'Your account is suspended. You will be logged out.', ar: 'تم إيقاف حسابك. سيتم تسجيل خروجك.' },
  ACCOUNT_DELETED: { status: 403, en: 'Your account was deleted. You will be logged out.', ar: 'تم حذف حسابك. سيتم تسجيل خروجك.' },
  WRONG_ROLE: { status: 403, en: 'This action is not available for your account type.', ar: 'هذا الإجراء غير متاح لنوع حسابك.' },
  NOT_FOUND: { status: 404, en: 'Not found.', ar: 'غير موجود.' },
  EMAIL_EXISTS: { status: 409, en: 'Email already exists.', ar: 'البريد الإلكتروني مسجل مسبقاً.' },
  PHONE_EXISTS: { status: 409, en: 'Phone number already exists.', ar: 'رقم الجوال مسجل مسبقاً.' },
  NOT_REGISTERED: {
    status: 404,
    en: 'This number or email is not registered. Register or try a different one.',
    ar: 'هذا الرقم أو البريد غير مسجل. سجّل حساباً أو جرّب رقماً آخر.',
  },
  INVALID_CREDENTIALS: { status: 401, en: 'Wrong phone number or password.', ar: 'رقم الجوال أو كلمة المرور غير صحيحة.' },
  INVALID_OTP: { status: 400, en: 'Invalid or missing OTP ID and code.', ar: 'رمز التحقق أو معرّفه غير صالح أو مفقود.' },
  OTP_EXPIRED: { status: 400, en: 'The verification code has expired. Request a new one.', ar: 'انتهت صلاحية رمز التحقق. اطلب رمزاً جديداً.' },
  OTP_ATTEMPTS_EXCEEDED: { status: 429, en: 'Too many wrong codes. Request a new one.', ar: 'محاولات خاطئة كثيرة. اطلب رمزاً جديداً.' },
  RATE_LIMITED: { status: 429, en: 'Too many requests. Please wait and try again.', ar: 'طلبات كثيرة. يرجى الانتظار ثم المحاولة مجدداً.' },
  PASSWORDS_DO_NOT_MATCH: { status: 400, en: 'Passwords do not match.', ar: 'كلمتا المرور غير متطابقتين.' },
  WRONG_PASSWORD: { status: 400, en: 'The current password is wrong.', ar: 'كلمة المرور الحالية غير صحيحة.' },
  INVALID_RESET_TOKEN: { status: 400, en: 'Invalid or missing OTP ID and token.', ar: 'معرّف رمز التحقق أو الرمز غير صالح أو مفقود.' },
  INVALID_CITY: { status: 400, en: 'Enter a valid city.', ar: 'أدخل مدينة صحيحة.' },
  INVALID_DISTRICT: { status: 400, en: 'Choose a district of the chosen city.', ar: 'اختر حياً من المدينة المختارة.' },
  INVALID_EQUIPMENT: { status: 400, en: 'Choose a valid equipment type.', ar: 'اختر نوع معدة صحيحاً.' },
  INVALID_GOODS_TYPE: { status: 400, en: 'Choose a valid goods type.', ar: 'اختر نوع بضاعة صحيحاً.' },
  VENDOR_NOT_LINKED: {
    status: 400,
    en: 'This vendor has no Masar account yet (no registered carrier or broker with its phone or e-mail).',
    ar: 'ليس لهذا المورّد حساب في مسار بعد (لا يوجد ناقل أو وسيط مسجل برقم جواله أو بريده).',
  },
  EXTEND_DATES_RANGE: {
    status: 400,
    en: 'A date can move later by at most {30} days, and stops must stay in order.',
    ar: 'يمكن تأخير التاريخ {30} يوماً كحد أقصى، ويجب أن تبقى نقاط التوقف مرتبة.',
  },
  TRUCK_NOT_EDITABLE: { status: 409, en: 'This truck post can no longer be changed.', ar: 'لم يعد بالإمكان تعديل منشور الشاحنة هذا.' },
  TRUCK_VEHICLE_INVALID: {
    status: 400,
    en: 'Choose an active vehicle (and trailer) of your own fleet.',
    ar: 'اختر مركبة (ومقطورة) نشطة من أسطولك.',
  },
  TRUCK_REPOST_NEEDS_DATES: {
    status: 400,
    en: 'This truck’s availability has ended. Give a new availability window to repost it.',
    ar: 'انتهت فترة توفر هذه الشاحنة. حدّد فترة توفر جديدة لإعادة نشرها.',
  },
  INVALID_REGION: { status: 400, en: 'Choose a valid region.', ar: 'اختر منطقة صحيحة.' },
  // ---- Tendering (issue 19) ----
  TENDER_NOT_OPEN: { status: 409, en: 'This tender is no longer open: bidding is closed.', ar: 'لم يعد هذا الطرح مفتوحاً: تم إغلاق تقديم العروض.' },
  TENDER_EXISTS: { status: 409, en: 'This shipment already has an open tender.', ar: 'لهذه الشحنة طرح مفتوح بالفعل.' },
  TENDER_NOT_YOUR_TURN: {
    status: 409,
    en: 'It is not your turn to answer this tender (waterfall): your window has not started or has ended.',
    ar: 'ليس دورك للرد على هذا الطرح (بالتتابع): لم تبدأ مهلتك أو انتهت.',
  },
  TENDER_ALREADY_ANSWERED: { status: 409, en: 'You have already answered this tender.', ar: 'لقد رددت على هذا الطرح مسبقاً.' },
  TENDER_NOT_AWARDABLE: {
    status: 409,
    en: 'Only an accepted or countered answer can be awarded.',
    ar: 'لا يمكن الترسية إلا على رد مقبول أو عرض مقابل.',
  },
  TENDER_INVITEE_INVALID: {
    status: 400,
    en: 'Invite carrier or broker accounts other than your own.',
    ar: 'ادعُ حسابات ناقلين أو وسطاء غير حسابك.',
  },
  TENDER_LOAD_NOT_OPEN: {
    status: 409,
    en: 'Only a posted or unposted shipment that is not booked yet can be tendered.',
    ar: 'لا يمكن طرح إلا شحنة منشورة أو غير منشورة لم تُحجز بعد.',
  },
  LOAD_NOT_EDITABLE: { status: 409, en: 'This shipment can no longer be changed.', ar: 'لم يعد بالإمكان تعديل هذه الشحنة.' },
  REPOST_NEEDS_FUTURE_PICKUP: { status: 400, en: 'Reposting needs a future pickup date.', ar: 'إعادة النشر تتطلب تاريخ تحميل في المستقبل.' },
  SHIPMENT_ALREADY_ASSIGNED: { status: 409, en: 'This shipment is already assigned.', ar: 'تم إسناد هذه الشحنة مسبقاً.' },
  BIDDING_CLOSED: { status: 409, en: 'Bidding on this shipment is closed.', ar: 'تم إغلاق تقديم العروض على هذه الشحنة.' },
  STATUS_CHANGED: {
    status: 409,
    en: 'Someone else changed this meanwhile. Reload and try again.',
    ar: 'قام شخص آخر بتغيير هذا في الأثناء. أعد التحميل وحاول مرة أخرى.',
  },
  INVALID_TRANSITION: {
    status: 409,
    en: 'This action is not possible in the shipment’s current status.',
    ar: 'هذا الإجراء غير ممكن في حالة الشحنة الحالية.',
  },
  // ---- Bayan and WASL (issue 7; spec §5, §8) ----
  BAYAN_UNDER_MIN_WEIGHT: { status: 422, en: 'Bayan creation not allowed under {3.5} tons.', ar: 'لا يُسمح بإنشاء بيان لمركبة وزنها أقل من {3.5} طن.' },
  BAYAN_NOT_ASSIGNED: {
    status: 409,
    en: 'Assign a vehicle with its driver to this shipment before creating its Bayan.',
    ar: 'أسند مركبة مع سائقها إلى هذه الشحنة قبل إنشاء البيان.',
  },
  BAYAN_ASSIGNMENT_MISMATCH: {
    status: 409,
    en: 'The vehicle and driver on the Bayan must be the ones assigned to this shipment from the awarded carrier’s fleet.',
    ar: 'يجب أن تكون المركبة والسائق في البيان هما المسندين إلى هذه الشحنة من أسطول الناقل الفائز.',
  },
  WASL_NOT_VERIFIED: {
    status: 409,
    en: 'The vehicle and driver must be verified with WASL before a Bayan can be created.',
    ar: 'يجب توثيق المركبة والسائق في وصل قبل إنشاء البيان.',
  },
  BAYAN_EXISTS: { status: 409, en: 'This shipment already has a Bayan.', ar: 'لهذه الشحنة بيان بالفعل.' },
  BAYAN_NOT_ACTIVE: { status: 409, en: 'This Bayan is already closed or cancelled.', ar: 'هذا البيان مغلق أو ملغى بالفعل.' },
  BAYAN_REJECTED: {
    status: 422,
    en: 'Bayan refused the trip data. Check the vehicle, driver and waybill details.',
    ar: 'رفضت منصة بيان بيانات الرحلة. تحقق من بيانات المركبة والسائق وبوليصة الشحن.',
  },
  BAYAN_UNAVAILABLE: {
    status: 503,
    en: 'The Bayan service did not answer. Try again in a moment.',
    ar: 'لم تستجب خدمة بيان. حاول مرة أخرى بعد لحظات.',
  },
  WASL_UNAVAILABLE: { status: 503, en: 'The WASL service did not answer. Try again in a moment.', ar: 'لم تستجب خدمة وصل. حاول مرة أخرى بعد لحظات.' },
  SHIPMENT_CANCELLED: { status: 409, en: 'This shipment was cancelled.', ar: 'تم إلغاء هذه الشحنة.' },
  OWN_LOAD_BID: { status: 409, en: 'You cannot bid on your own shipment.', ar: 'لا يمكنك تقديم عرض على شحنتك.' },
  OFFER_NOT_PENDING: { status: 409, en: 'This offer is no longer open.', ar: 'لم يعد هذا العرض مفتوحاً.' },
  NOT_YOUR_TURN: { status: 409, en: 'Wait for the other party to answer your last price.', ar: 'انتظر رد الطرف الآخر على آخر سعر قدمته.' },
  DUPLICATE_OFFER: { status: 409, en: 'You already have an open offer on this shipment.', ar: 'لديك عرض مفتوح على هذه الشحنة.' },
  // Book Now (issue 19)
  BOOK_NOW_UNAVAILABLE: { status: 409, en: 'This shipment cannot be booked now at its posted price.', ar: 'لا يمكن حجز هذه الشحنة فوراً بسعرها المعلن.' },
  BOOK_NOW_NOT_TRUSTED: {
    status: 403,
    en: 'The shipper offers Book Now to its own vendors only.',
    ar: 'يتيح الشاحن الحجز الفوري لمورّديه فقط.',
  },
  BOOK_NOW_PRICE_CHANGED: {
    status: 409,
    en: 'The posted price changed. Check the new price and book again.',
    ar: 'تغيّر السعر المعلن. راجع السعر الجديد ثم احجز مرة أخرى.',
  },
  // favourites and blocked users (issue 8; spec §6 "Users may block or favourite shippers and brokers")
  USER_BLOCKED: { status: 403, en: 'Not possible: one of you blocked the other.', ar: 'غير ممكن: أحدكما حظر الآخر.' },
  // chat (issue 21): the other side's contact settings do not let me message them
  CHAT_NOT_ALLOWED: {
    status: 403,
    en: 'This user does not accept messages from you.',
    ar: 'لا يستقبل هذا المستخدم رسائل منك.',
  },
  // calls (issue 21): the other side's audio / video contact setting, a line already in a call, a call already over
  CALL_NOT_ALLOWED: {
    status: 403,
    en: 'This user does not accept this kind of call from you.',
    ar: 'لا يستقبل هذا المستخدم هذا النوع من المكالمات منك.',
  },
  CALL_BUSY: { status: 409, en: 'One of you is already in a call. Try again later.', ar: 'أحدكما في مكالمة أخرى. حاول لاحقاً.' },
  CALL_NOT_RINGING: { status: 409, en: 'This call is no longer ringing.', ar: 'لم تعد هذه المكالمة ترن.' },
  CALL_NOT_ACTIVE: { status: 409, en: 'This call has ended.', ar: 'انتهت هذه المكالمة.' },
  // chat attachments (issue 21): typed by magic bytes; a file is sent once, by its uploader
  CHAT_ATTACHMENT_TYPE_NOT_ALLOWED: {
    status: 415,
    en: 'An attachment must be a photo (JPG, PNG or WebP) or a PDF.',
    ar: 'يجب أن يكون المرفق صورة (JPG أو PNG أو WebP) أو ملف PDF.',
  },
  CHAT_ATTACHMENT_UNAVAILABLE: {
    status: 409,
    en: 'Attach the file again: this one is not yours to send or was already sent.',
    ar: 'أرفق الملف مرة أخرى: هذا الملف ليس لك أو سبق إرساله.',
  },
  RELATION_SELF: { status: 400, en: 'You cannot add yourself.', ar: 'لا يمكنك إضافة نفسك.' },
  TOO_MANY_PASSWORD_ATTEMPTS: {
    status: 429,
    en: 'Too many wrong passwords. Try again in {15} minutes, or sign in with a code by SMS.',
    ar: 'محاولات خاطئة كثيرة لكلمة المرور. حاول بعد {15} دقيقة، أو سجّل الدخول برمز عبر الرسائل النصية.',
  },
  SMS_SEND_FAILED: { status: 502, en: 'We could not send the SMS. Please try again.', ar: 'تعذر إرسال الرسالة النصية. يرجى المحاولة مرة أخرى.' },
  // fleet, vendors, files, CSV (issue 3)
  DUPLICATE_SEARCH: { status: 409, en: 'Duplicate search exists.', ar: 'يوجد بحث محفوظ مطابق.' },
  DUPLICATE_RATE_ALERT: { status: 409, en: 'You already have this rate alert.', ar: 'لديك تنبيه أسعار مطابق بالفعل.' },
  BACKHAUL_NOT_BOOKED: {
    status: 409,
    en: 'Backhauls are shown for a shipment booked by you and not yet completed or cancelled.',
    ar: 'تُعرض رحلات العودة لشحنة محجوزة لك ولم تكتمل أو تُلغَ بعد.',
  },
  BACKHAUL_TRUCK_DESTINATION: {
    status: 400,
    en: 'Backhauls need a truck going to exactly one destination city (not anywhere or a region).',
    ar: 'تتطلب رحلات العودة شاحنة متجهة إلى مدينة وجهة واحدة فقط (وليس أي وجهة أو منطقة).',
  },
  DUPLICATE_PLATE: { status: 409, en: 'Duplicate plate number.', ar: 'رقم اللوحة مكرر.' },
  DUPLICATE_TRAILER_NUMBER: { status: 409, en: 'A trailer with this number already exists.', ar: 'توجد مقطورة بهذا الرقم مسبقاً.' },
  MOI_EXISTS: { status: 409, en: 'This MOI number is already registered.', ar: 'رقم وزارة الداخلية مسجل مسبقاً.' },
  DRIVER_EXISTS: { status: 409, en: 'A driver with this ID / Iqama number already exists.', ar: 'يوجد سائق برقم الهوية / الإقامة هذا مسبقاً.' },
  NO_VEHICLES_FOR_ASSIGNMENT: {
    status: 404,
    en: 'No vehicles available for assignment. Select a vehicle with a driver and a linked trailer.',
    ar: 'لا توجد مركبات متاحة للإسناد. اختر مركبة لها سائق ومقطورة مرتبطة.',
  },
  VEHICLE_NOT_AVAILABLE: {
    status: 409,
    en: 'This vehicle cannot take the job: it must be active and free, with an active driver and a linked active trailer.',
    ar: 'لا يمكن لهذه المركبة تولي المهمة: يجب أن تكون نشطة ومتاحة ولها سائق نشط ومقطورة نشطة مرتبطة.',
  },
  VEHICLE_WASL_REQUIRED: {
    status: 409,
    en: 'This vehicle needs WASL verification before it can take a shipment that needs Bayan ({3.5} t and over).',
    ar: 'تحتاج هذه المركبة إلى تحقق وصل قبل أن تتولى شحنة تتطلب بيان ({3.5} طن فأكثر).',
  },
  BAYAN_REQUIRED: {
    status: 409,
    en: 'This shipment needs Bayan (vehicle of {3.5} t or more): it completes when its Bayan is closed.',
    ar: 'تتطلب هذه الشحنة بيان (مركبة {3.5} طن فأكثر): تكتمل عند إغلاق البيان.',
  },
  NOT_DELIVERED: { status: 409, en: 'The driver has not completed the job yet (proof of drop).', ar: 'لم يُكمل السائق المهمة بعد (إثبات التسليم).' },
  DELIVERY_OVERRIDE_FORBIDDEN: {
    status: 403,
    en: "Only the shipper can close without the driver's proof of delivery, with a reason.",
    ar: 'لا يغلق بدون إثبات التسليم من السائق إلا الشاحن، مع ذكر السبب.',
  },
  NOT_AWARDED_CARRIER: { status: 403, en: 'Only the carrier awarded this shipment can do this.', ar: 'لا يقوم بهذا إلا الناقل الذي أُسندت إليه الشحنة.' },
  VEHICLE_DATA_ERROR: { status: 500, en: 'Error loading vehicle data.', ar: 'خطأ في تحميل بيانات المركبة.' },
  FLEET_ITEM_DELETED: { status: 409, en: 'This item was deleted and can no longer be changed.', ar: 'تم حذف هذا العنصر ولم يعد بالإمكان تعديله.' },
  FLEET_ITEM_SUSPENDED: { status: 409, en: 'This item is suspended. Activate it first.', ar: 'هذا العنصر موقوف. قم بتفعيله أولاً.' },
  DRIVER_ALREADY_ASSIGNED: { status: 409, en: 'This driver is already assigned to another vehicle.', ar: 'هذا السائق مسند إلى مركبة أخرى.' },
  TRAILER_ALREADY_LINKED: { status: 409, en: 'This trailer is already linked to another vehicle.', ar: 'هذه المقطورة مرتبطة بمركبة أخرى.' },
  VEHICLE_BUSY: { status: 409, en: 'This vehicle is on a job and cannot be changed now.', ar: 'هذه المركبة في مهمة ولا يمكن تعديلها الآن.' },
  INVALID_VENDOR: { status: 400, en: 'Choose one of your vendors.', ar: 'اختر أحد مورديك.' },
  INVALID_FILE: { status: 400, en: 'Upload the file again: it was not found.', ar: 'ارفع الملف مرة أخرى: لم يتم العثور عليه.' },
  FILE_TYPE_NOT_ALLOWED: { status: 415, en: 'Documents must be PDF, JPG or PNG.', ar: 'يجب أن تكون المستندات بصيغة PDF أو JPG أو PNG.' },
  FILE_TOO_LARGE: { status: 413, en: 'Files can be at most {5} MB.', ar: 'حجم الملف {5} ميجابايت كحد أقصى.' },
  VENDOR_EMAIL_EXISTS: { status: 409, en: 'Email already exists.', ar: 'البريد الإلكتروني مسجل مسبقاً.' },
  VENDOR_PHONE_EXISTS: { status: 409, en: 'Phone number already exists.', ar: 'رقم الجوال مسجل مسبقاً.' },
  VENDOR_DELETE_FAILED: { status: 409, en: 'Failed to delete vendor.', ar: 'فشل حذف المورد.' },
  VENDOR_REQUEST_CLOSED: { status: 409, en: 'This vendor request was already handled.', ar: 'تمت معالجة طلب المورد هذا مسبقاً.' },
  INVALID_INVITE: { status: 404, en: 'This vendor link is invalid or has expired.', ar: 'رابط المورد هذا غير صالح أو منتهي الصلاحية.' },
  UPLOAD_A_CSV: { status: 415, en: 'Upload a CSV file.', ar: 'ارفع ملف CSV.' },
  UPLOAD_FILE_FIRST: { status: 400, en: 'Upload the file first.', ar: 'ارفع الملف أولاً.' },
  CSV_EMPTY: { status: 400, en: 'The CSV file has no rows.', ar: 'ملف CSV لا يحتوي على صفوف.' },
  CSV_BAD_HEADERS: { status: 400, en: 'The CSV headers do not match the template.', ar: 'عناوين أعمدة ملف CSV لا تطابق القالب.' },
  CSV_TOO_MANY_ROWS: { status: 413, en: 'The CSV file has too many rows (at most {100,000}).', ar: 'ملف CSV يحتوي على صفوف كثيرة ({100,000} كحد أقصى).' },
  CSV_INTERRUPTED: {
    status: 500,
    en: 'The import was interrupted (server restart). Rows listed as succeeded are saved; upload the rest again.',
    ar: 'توقف الاستيراد (إعادة تشغيل الخادم). الصفوف الناجحة محفوظة؛ ارفع الباقي مرة أخرى.',
  },
  CSV_TYPE_NOT_SUPPORTED: { status: 501, en: 'This import type is not available yet.', ar: 'نوع الاستيراد هذا غير متاح بعد.' },
  // the driver's trip, proofs, tracking, payment follow-through (issue 7)
  DRIVER_LINK_INVALID: {
    status: 404,
    en: 'This job link is invalid or has expired. Ask your company for a new one.',
    ar: 'رابط المهمة هذا غير صالح أو منتهي الصلاحية. اطلب رابطاً جديداً من شركتك.',
  },
  DRIVER_NOT_IDENTIFIED: {
    status: 403,
    en: 'The phone number and licence number do not match this job link.',
    ar: 'رقم الجوال ورقم الرخصة لا يطابقان رابط المهمة هذا.',
  },
  TRIP_SESSION_INVALID: { status: 401, en: 'Your trip session has ended. Open the job link again.', ar: 'انتهت جلسة الرحلة. افتح رابط المهمة مرة أخرى.' },
  TRIP_STEP_OUT_OF_ORDER: { status: 409, en: 'Do the steps of the job in order.', ar: 'نفّذ خطوات المهمة بالترتيب.' },
  DEVICE_TIME_IN_FUTURE: {
    status: 422,
    en: "This phone's clock is ahead of the real time. Set the date and time to automatic and send again.",
    ar: 'ساعة هذا الجوال متقدمة على الوقت الحقيقي. اضبط التاريخ والوقت على التلقائي ثم أرسل مرة أخرى.',
  },
  DEVICE_TIME_BEFORE_ASSIGNMENT: {
    status: 422,
    en: 'This was recorded before the job was assigned to you. Check the date and time of the phone.',
    ar: 'سُجّل هذا قبل إسناد المهمة إليك. تحقق من تاريخ الجوال ووقته.',
  },
  TRIP_STEP_TIME_BEFORE_PREVIOUS: {
    status: 409,
    en: 'This step was recorded before the previous step. Check the date and time of the phone.',
    ar: 'سُجّلت هذه الخطوة قبل الخطوة السابقة. تحقق من تاريخ الجوال ووقته.',
  },
  PROOF_TYPE_NOT_ALLOWED: {
    status: 415,
    en: 'A proof must be a photo (JPG, PNG or WebP) or a PDF.',
    ar: 'يجب أن يكون الإثبات صورة (JPG أو PNG أو WebP) أو ملف PDF.',
  },
  PROOF_TOO_LARGE: { status: 413, en: 'A proof can be at most {10} MB.', ar: 'حجم الإثبات {10} ميجابايت كحد أقصى.' },
  UNKNOWN_IMEI: { status: 404, en: 'None of your vehicles has this IMEI.', ar: 'لا توجد مركبة لديك بهذا الرقم التسلسلي (IMEI).' },
  NO_VEHICLE_ON_TRIP: { status: 409, en: 'No vehicle is on a trip with you now.', ar: 'لا توجد مركبة في رحلة معك الآن.' },
  SHIPMENT_NOT_COMPLETED: {
    status: 409,
    en: 'The shipment is not completed yet: mark the payment received once it is completed.',
    ar: 'لم تكتمل الشحنة بعد: سجّل استلام الدفعة بعد اكتمالها.',
  },
  PAYMENT_ALREADY_RECEIVED: { status: 409, en: 'The payment was already marked as received.', ar: 'تم تسجيل استلام الدفعة مسبقاً.' },
  TEAM_ROLE_FORBIDDEN: {
    status: 403,
    en: 'Your team role does not allow this. Ask an admin of the account.',
    ar: 'دورك في الفريق لا يسمح بهذا الإجراء. اطلب ذلك من مسؤول الحساب.',
  },
  TEAM_OWN_PHONE: { status: 409, en: 'This is the account owner’s own phone number.', ar: 'هذا رقم جوال مالك الحساب نفسه.' },
  TEAM_MEMBER_EXISTS: {
    status: 409,
    en: 'This phone number is already invited to or a member of your team.',
    ar: 'رقم الجوال هذا مدعو مسبقاً أو عضو في فريقك.',
  },
  TEAM_PHONE_IN_OTHER_TEAM: {
    status: 409,
    en: 'This phone number already belongs to another company’s team or owns a team.',
    ar: 'رقم الجوال هذا ينتمي إلى فريق شركة أخرى أو يملك فريقاً.',
  },
  // ---- Payment protection (issue 50) ----
  ESCROW_NOT_FOUND: { status: 404, en: 'This shipment has no payment protection.', ar: 'هذه الشحنة ليست محمية الدفع.' },
  ESCROW_NOT_FUNDABLE: { status: 409, en: 'This payment is already funded or closed.', ar: 'هذا الدفع ممول مسبقاً أو مغلق.' },
  ESCROW_NOT_DISPUTABLE: {
    status: 409,
    en: 'A dispute can only be opened while the payment is held, before it is released.',
    ar: 'لا يمكن فتح نزاع إلا والمبلغ محتجز، قبل تحويله.',
  },
  ESCROW_NOT_SETTLEABLE: { status: 409, en: 'Only a disputed payment can be settled.', ar: 'لا يمكن تسوية إلا دفعة عليها نزاع.' },
  ESCROW_BAD_AMOUNT: {
    status: 400,
    en: 'A partial settlement must be more than zero and less than the held amount.',
    ar: 'يجب أن تكون التسوية الجزئية أكبر من صفر وأقل من المبلغ المحتجز.',
  },
  DETENTION_NOT_AVAILABLE: {
    status: 404,
    en: 'This shipment has no detention terms or no trip yet.',
    ar: 'لا توجد شروط انتظار لهذه الشحنة أو لم تبدأ الرحلة بعد.',
  },
  DETENTION_STILL_ACCRUING: {
    status: 409,
    en: 'The truck is still at this stop: detention can be accepted once it leaves.',
    ar: 'الشاحنة لا تزال في هذه المحطة: يمكن قبول رسوم الانتظار بعد مغادرتها.',
  },
  DETENTION_ALREADY_DECIDED: {
    status: 409,
    en: 'The detention of this stop was already accepted or disputed.',
    ar: 'تم قبول رسوم الانتظار لهذه المحطة أو الاعتراض عليها مسبقاً.',
  },
  SOMETHING_WENT_WRONG: { status: 500, en: 'Something went wrong.', ar: 'حدث خطأ ما.' },
} as const satisfies Record<string, { status: number; en: string; ar: string }>;

export type ErrorCode = keyof typeof ERRORS;

/**
 * Localized message of an error code; falls back to English for unknown languages. Its numbers
 * (`{5}` in the catalogue) are written in `digits`, the reader's digit system (default: the
 * language's).
 */
export function errorMessage(code: ErrorCode, lang: Language | string = 'en', digits?: DigitSystem): string {
  const entry = ERRORS[code];
  return lang === 'ar' ? localizeNumbers(entry.ar, 'ar', digits) : localizeNumbers(entry.en, 'en', digits);
}

/** Shape of every error body of the API (DESIGN §3). */
export interface ApiErrorBody {
  message: string;
  code: ErrorCode | string;
  errors?: { path: string; message: string }[];
}
