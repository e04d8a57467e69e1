import type { Language } from './constants.ts';
import { localizeNumbers, type DigitSystem } from './digits.ts';

/**
 * Field-level validation messages used by the shared zod schemas. Schemas carry the key
 * (`v.<name>`) as their message; `localizeValidationMessage` turns it into text for the
 * client's language. Every key has an English and an Arabic twin (a unit test checks it).
 */
export const VALIDATION_MESSAGES = {
  'v.required': { en: 'This field is required.', ar: 'هذا الحقل مطلوب.' },
  'v.textInvalid': {
    en: 'This text contains characters that cannot be saved (a null character or a broken Unicode character).',
    ar: 'يحتوي هذا النص على رموز لا يمكن حفظها (رمز فارغ أو رمز يونيكود غير مكتمل).',
  },
  'v.blockReason': { en: 'A note is at most {300} characters.', ar: 'الملاحظة {300} حرف كحد أقصى.' },
  'v.urlInvalid': { en: 'Enter a full web address (https://…).', ar: 'أدخل عنوان ويب كاملاً (https://…).' },
  'v.webhookHttps': {
    en: 'Webhook addresses must use https and a public host.',
    ar: 'يجب أن يستخدم عنوان الويب هوك https ومضيفاً عاماً.',
  },
  'v.cardNumber': { en: 'Enter a valid card number (mada, Visa, Mastercard, Amex …).', ar: 'أدخل رقم بطاقة صحيحاً (مدى، فيزا، ماستركارد، أمريكان إكسبريس …).' },
  'v.cardExpiry': { en: 'Enter a valid expiry date in the future (MM/YY).', ar: 'أدخل تاريخ انتهاء صالحاً في المستقبل (شهر/سنة).' },
  'v.cardCvc': {
    en: 'Enter the security code on the card ({3} digits, {4} for Amex).',
    ar: 'أدخل رمز الأمان الموجود على البطاقة ({3} أرقام، و{4} لأمريكان إكسبريس).',
  },
  'v.promoCode': { en: 'A promo code is {3} to {32} letters, digits, - or _.', ar: 'رمز الخصم من {3} إلى {32} حرفاً أو رقماً أو - أو _.' },
  'v.walletAmount': { en: 'Recharge between {10} and {50,000} SAR.', ar: 'اشحن مبلغاً بين {10} و{50,000} ريال.' },
  'v.numberRange': { en: 'This number is out of range.', ar: 'هذا الرقم خارج النطاق المسموح.' },
  'v.skipUseCursor': {
    en: 'Pages beyond the first {1,000} results are read with the cursor: pass the previous page’s nextCursor as cursor.',
    ar: 'تُقرأ الصفحات بعد أول ١٬٠٠٠ نتيجة بالمؤشر: مرّر قيمة nextCursor من الصفحة السابقة في cursor.',
  },
  'v.phoneInvalid': { en: 'Enter a valid phone number.', ar: 'أدخل رقم جوال صحيحاً.' },
  'v.phoneStart5': { en: 'Phone number must start with 5.', ar: 'يجب أن يبدأ رقم الجوال بالرقم 5.' },
  'v.emailInvalid': { en: 'Enter a valid email address.', ar: 'أدخل بريداً إلكترونياً صحيحاً.' },
  'v.passwordLength': { en: 'Password must be {6} to {15} characters.', ar: 'يجب أن تتكون كلمة المرور من {6} إلى {15} حرفاً.' },
  'v.passwordCapital': { en: 'Password needs a capital letter.', ar: 'يجب أن تحتوي كلمة المرور على حرف كبير.' },
  'v.passwordSpecial': { en: 'Password needs a special character.', ar: 'يجب أن تحتوي كلمة المرور على رمز خاص.' },
  'v.passwordLoginMin': { en: 'Password must be at least {6} characters.', ar: 'يجب ألا تقل كلمة المرور عن {6} أحرف.' },
  'v.passwordsDoNotMatch': { en: 'Passwords do not match.', ar: 'كلمتا المرور غير متطابقتين.' },
  'v.otpFormat': { en: 'The code is {4} digits.', ar: 'رمز التحقق مكوّن من {4} أرقام.' },
  'v.nameRequired': { en: 'Enter a name (up to {60} characters).', ar: 'أدخل اسماً (حتى {60} حرفاً).' },
  'v.cityInvalid': { en: 'Enter a valid city.', ar: 'أدخل مدينة صحيحة.' },
  'v.stopsPickupRequired': { en: 'Add at least one pickup.', ar: 'أضف نقطة تحميل واحدة على الأقل.' },
  'v.stopsDropRequired': { en: 'Add at least one drop.', ar: 'أضف نقطة تنزيل واحدة على الأقل.' },
  'v.stopsFirstPickup': { en: 'The first stop must be a pickup.', ar: 'يجب أن تكون النقطة الأولى نقطة تحميل.' },
  'v.stopsLastDrop': { en: 'The last destination is required.', ar: 'الوجهة الأخيرة مطلوبة.' },
  'v.stopsMax': { en: 'At most {10} stops.', ar: '{10} نقاط توقف كحد أقصى.' },
  'v.stopsPickupDropSame': { en: 'Pickup and drop addresses must differ.', ar: 'يجب أن يختلف عنوان التحميل عن عنوان التنزيل.' },
  'v.stopsDuplicateAddress': { en: 'An address cannot be chosen twice.', ar: 'لا يمكن اختيار العنوان نفسه مرتين.' },
  'v.stopsOrder': { en: 'Each stop must be on or after the previous one.', ar: 'يجب أن يكون موعد كل نقطة في موعد النقطة السابقة أو بعده.' },
  'v.timeInPast': {
    en: 'Time cannot be in the past (allow at least {1} hour from now).',
    ar: 'لا يمكن أن يكون الوقت في الماضي (اترك ساعة على الأقل من الآن).',
  },
  'v.dateInvalid': { en: 'Enter a valid date and time.', ar: 'أدخل تاريخاً ووقتاً صحيحين.' },
  'v.cargoRequired': { en: 'Add at least one cargo line.', ar: 'أضف بنداً واحداً من البضاعة على الأقل.' },
  'v.cargoMax': { en: 'At most {10} cargo lines.', ar: '{10} بنود بضاعة كحد أقصى.' },
  'v.cargoPositive': { en: 'Cargo dimensions, quantity and weight must be above {0}.', ar: 'يجب أن تكون أبعاد البضاعة وكميتها ووزنها أكبر من {0}.' },
  'v.weightDigits': { en: 'Weight per item can have at most {10} digits.', ar: 'وزن القطعة {10} أرقام كحد أقصى.' },
  'v.quantityInteger': { en: 'Quantity must be a whole number.', ar: 'يجب أن تكون الكمية عدداً صحيحاً.' },
  'v.goodsTypeRequired': { en: 'Choose a goods type.', ar: 'اختر نوع البضاعة.' },
  'v.equipmentRequired': { en: 'Choose an equipment type.', ar: 'اختر نوع المعدة.' },
  'v.pricePositive': { en: 'Price must be above {0} SAR.', ar: 'يجب أن يكون السعر أكبر من {0} ريال.' },
  'v.priceMax': { en: 'Price is too large.', ar: 'السعر كبير جداً.' },
  'v.priceFormat': {
    en: 'Enter the price in SAR with at most {2} decimals, e.g. {1500.50}.',
    ar: 'أدخل السعر بالريال بخانتين عشريتين على الأكثر، مثل {1500.50}.',
  },
  'v.commentsMax': { en: 'Comments can have at most {140} characters.', ar: 'التعليقات {140} حرفاً كحد أقصى.' },
  'v.addressMax': { en: 'Address can have at most {200} characters.', ar: 'العنوان {200} حرف كحد أقصى.' },
  'v.addressOrNational': { en: 'Write the address, or fill in the national address.', ar: 'اكتب العنوان، أو أدخل العنوان الوطني.' },
  'v.radiusOption': {
    en: 'Choose a radius of {10}, {50}, {100}, {200}, {300}, {500} or {1000} km.',
    ar: 'اختر نطاقاً من {10} أو {50} أو {100} أو {200} أو {300} أو {500} أو {1000} كم.',
  },
  'v.tenderCarriers': { en: 'Choose {1} to {20} carriers.', ar: 'اختر من {1} إلى {20} ناقلاً.' },
  'v.tenderDeadline': {
    en: 'The deadline must be in the future, at most {30} days ahead.',
    ar: 'يجب أن يكون الموعد النهائي في المستقبل، خلال {30} يوماً كحد أقصى.',
  },
  'v.tenderStep': { en: 'Each carrier’s turn lasts {5} to {1,440} minutes.', ar: 'تستمر مهلة كل ناقل من {5} إلى {1,440} دقيقة.' },
  'v.dateRange': { en: 'The end date must be on or after the start date.', ar: 'يجب أن يكون تاريخ النهاية في تاريخ البداية أو بعده.' },
  // truck posts (issue 19)
  'v.regionInvalid': { en: 'Choose a valid region.', ar: 'اختر منطقة صحيحة.' },
  'v.truckDestinations': {
    en: 'Choose anywhere, or {1} to {10} destination cities or regions.',
    ar: 'اختر أي وجهة، أو من {1} إلى {10} مدن أو مناطق وجهة.',
  },
  'v.searchName': { en: 'Name the search (up to {80} characters).', ar: 'أدخل اسماً للبحث (حتى {80} حرفاً).' },
  'v.searchFilters': { en: 'A search has at most {20} filters.', ar: 'يحتوي البحث على {20} عامل تصفية كحد أقصى.' },
  'v.rateAlertThreshold': { en: 'Enter a threshold above {0} (at most {1,000} %).', ar: 'أدخل حداً أكبر من {0} (بحد أقصى {1,000} ٪).' },
  'v.truckCapacity': { en: 'Capacity must be above {0} and at most {45,000} kg.', ar: 'يجب أن تكون الحمولة أكبر من {0} وألا تتجاوز {45,000} كجم.' },
  'v.truckWindow': { en: 'Availability can span at most {30} days.', ar: 'يمكن أن تمتد فترة التوفر {30} يوماً كحد أقصى.' },
  // truck in/out and shipment in/out logs (issue 19)
  // notification preferences (issue 21)
  'v.time': { en: 'Enter a time as HH:MM.', ar: 'أدخل الوقت بالصيغة HH:MM.' },
  'v.quietHours': { en: 'Set both ends of the quiet hours, or neither.', ar: 'حدد بداية ساعات الهدوء ونهايتها، أو اتركهما فارغتين.' },
  // web push (issue 21)
  'v.pushEndpoint': {
    en: 'The push subscription needs the https address of a public push service.',
    ar: 'يحتاج اشتراك الإشعارات الفورية إلى عنوان https لخدمة إشعارات عامة.',
  },
  'v.pushKey': { en: 'The push subscription keys are not valid.', ar: 'مفاتيح اشتراك الإشعارات الفورية غير صالحة.' },
  'v.pushTopic': { en: 'The topic is not valid: use your profile topic.', ar: 'الموضوع غير صالح: استخدم موضوع ملفك الشخصي.' },
  'v.inoutWindow': { en: 'A log covers at most {31} days.', ar: 'يغطي السجل {31} يوماً كحد أقصى.' },
  'v.truckWindowPast': { en: 'Availability must end in the future.', ar: 'يجب أن تنتهي فترة التوفر في المستقبل.' },
  // fleet, vendors, CSV (issue 3)
  'v.plateDigits': { en: 'The plate number is {4} digits and cannot be all zeros.', ar: 'رقم اللوحة {4} أرقام ولا يمكن أن يكون أصفاراً فقط.' },
  'v.plateLetter': { en: 'Choose three plate letters.', ar: 'اختر ثلاثة أحرف للوحة.' },
  'v.plateType': { en: 'Choose a plate type.', ar: 'اختر نوع اللوحة.' },
  'v.sequenceNumber': {
    en: 'Sequence number must be {4} to {9} letters or digits and not all zeros.',
    ar: 'الرقم التسلسلي من {4} إلى {9} أحرف أو أرقام ولا يكون أصفاراً فقط.',
  },
  'v.imei': { en: 'IMEI must be exactly {15} digits and not all zeros.', ar: 'رقم IMEI يجب أن يكون {15} رقماً بالضبط وليس أصفاراً فقط.' },
  'v.vehicleWeight': { en: 'Weight must be above {0} and at most {45} tons.', ar: 'يجب أن يكون الوزن أكبر من {0} وألا يتجاوز {45} طناً.' },
  'v.vehicleYear': { en: 'Enter a valid model year.', ar: 'أدخل سنة صنع صحيحة.' },
  'v.registrationNumber': { en: 'Registration number can have at most {30} characters.', ar: 'رقم الاستمارة {30} حرفاً كحد أقصى.' },
  'v.vendorRequired': { en: 'Choose the vendor of this vehicle.', ar: 'اختر المورد الخاص بهذه المركبة.' },
  'v.fileId': { en: 'Upload the file again.', ar: 'ارفع الملف مرة أخرى.' },
  'v.filesMax': { en: 'At most {10} files.', ar: '{10} ملفات كحد أقصى.' },
  'v.trailerType': { en: 'Choose the trailer type from the list.', ar: 'اختر نوع المقطورة من القائمة.' },
  'v.trailerNumber': {
    en: 'Trailer number must be {6} to {10} letters, digits or hyphens and not all zeros.',
    ar: 'رقم المقطورة من {6} إلى {10} أحرف أو أرقام أو شرطات ولا يكون أصفاراً فقط.',
  },
  'v.trailerLength': { en: 'Length must be between {500} and {2000} cm.', ar: 'يجب أن يكون الطول بين {500} و{2000} سم.' },
  'v.trailerBreadth': { en: 'Breadth must be between {200} and {500} cm.', ar: 'يجب أن يكون العرض بين {200} و{500} سم.' },
  'v.trailerCapacity': { en: 'Capacity must be between {1,000} and {50,000} kg.', ar: 'يجب أن تكون الحمولة بين {1,000} و{50,000} كجم.' },
  'v.salutation': { en: 'Choose a salutation.', ar: 'اختر اللقب.' },
  'v.nationality': { en: 'Choose a nationality.', ar: 'اختر الجنسية.' },
  'v.dateOfBirth': { en: 'Enter the date of birth (YYYY-MM-DD).', ar: 'أدخل تاريخ الميلاد (YYYY-MM-DD).' },
  'v.driverAge': { en: 'The driver must be at least {18} years old.', ar: 'يجب ألا يقل عمر السائق عن {18} سنة.' },
  'v.licenceNumber': { en: 'Licence number must be {8} to {12} digits and not all zeros.', ar: 'رقم الرخصة من {8} إلى {12} رقماً ولا يكون أصفاراً فقط.' },
  'v.driverId': { en: 'Driver ID / Iqama must be exactly {10} digits starting with 1 or 2.', ar: 'رقم الهوية / الإقامة {10} أرقام بالضبط ويبدأ بـ 1 أو 2.' },
  'v.iqamaCount': { en: 'Iqama issue count must be between {1} and {100}.', ar: 'عدد مرات إصدار الإقامة بين {1} و{100}.' },
  'v.crNumber': { en: 'CR number must be exactly {10} digits and not all zeros.', ar: 'رقم السجل التجاري {10} أرقام بالضبط ولا يكون أصفاراً فقط.' },
  'v.moiNumber': { en: 'MOI number must be exactly {10} digits.', ar: 'رقم وزارة الداخلية {10} أرقام بالضبط.' },
  'v.managerPhoneSame': { en: "The manager's phone must differ from the driver's phone.", ar: 'يجب أن يختلف جوال المدير عن جوال السائق.' },
  'v.vatNumber': { en: 'VAT number must be {15} digits starting with 3.', ar: 'الرقم الضريبي {15} رقماً ويبدأ بـ 3.' },
  'v.tlNumber': {
    en: 'TL number must be {8} to {15} letters or digits, without spaces or symbols.',
    ar: 'رقم رخصة النقل من {8} إلى {15} حرفاً أو رقماً بدون مسافات أو رموز.',
  },
  'v.vendorNotesMax': { en: 'Notes can have at most {250} characters.', ar: 'الملاحظات {250} حرفاً كحد أقصى.' },
  'v.vendorUserType': { en: 'Choose shipper, carrier or TMS.', ar: 'اختر شاحن أو ناقل أو وسيط.' },
  'v.officeLocationsMax': { en: 'At most {10} office locations.', ar: '{10} مواقع مكاتب كحد أقصى.' },
  'v.textMax': { en: 'This text is too long.', ar: 'هذا النص طويل جداً.' },
  'v.paymentTerms': { en: 'Choose valid payment terms.', ar: 'اختر شروط دفع صحيحة.' },
  'v.shipmentType': { en: 'Choose valid shipment types.', ar: 'اختر أنواع شحنات صحيحة.' },
  'v.region': { en: 'Choose valid regions.', ar: 'اختر مناطق صحيحة.' },
  'v.language': { en: 'Choose valid languages.', ar: 'اختر لغات صحيحة.' },
  'v.contactMethod': { en: 'Choose a valid contact method.', ar: 'اختر طريقة تواصل صحيحة.' },
  'v.count': { en: 'Enter a whole number of {0} or more.', ar: 'أدخل عدداً صحيحاً يساوي {0} أو أكثر.' },
  'v.csvCell': { en: 'This cell cannot be read.', ar: 'تعذرت قراءة هذه الخلية.' },
  'v.addressRequired': { en: 'Fill out this address field (not {0} or a dot).', ar: 'املأ حقل العنوان هذا (ليس {0} أو نقطة).' },
  'v.addressFieldMax': { en: 'This address field is too long.', ar: 'حقل العنوان هذا طويل جداً.' },
  'v.fax': { en: 'Fax is {7} digits.', ar: 'الفاكس {7} أرقام.' },
  'v.logoImage': { en: 'Logo: PNG or JPG, at most {5} MB.', ar: 'الشعار: PNG أو JPG بحد أقصى {5} ميجابايت.' },
  'v.rateWindow': { en: 'Choose a window of 7, 15, 30, 60 or 90 days, or 1 year.', ar: 'اختر مدة 7 أو 15 أو 30 أو 60 أو 90 يوماً، أو سنة.' },
  'v.districtCity': { en: 'Choose a district of this city.', ar: 'اختر حياً في هذه المدينة.' },
  'v.buildingNumber': { en: 'Building number is {4} digits.', ar: 'رقم المبنى {4} أرقام.' },
  'v.zipCode': { en: 'Zip code is {5} digits.', ar: 'الرمز البريدي {5} أرقام.' },
  'v.additionalNumber': { en: 'Additional number is {4} digits.', ar: 'الرقم الإضافي {4} أرقام.' },
  'v.hoursInvalid': { en: 'Enter a time as HH:MM.', ar: 'أدخل الوقت بصيغة ساعة:دقيقة.' },
  'v.hoursOrder': { en: 'The closing time must be after the opening time.', ar: 'يجب أن يكون وقت الإغلاق بعد وقت الفتح.' },
  'v.paymentMethod': { en: 'Choose cash, bank transfer or credit.', ar: 'اختر نقداً أو تحويلاً بنكياً أو آجلاً.' },
  'v.paidBy': { en: 'Choose sender or receiver.', ar: 'اختر المرسل أو المستلم.' },
  'v.paymentTermsDays': { en: 'Payment terms are {0} to {180} days.', ar: 'مدة السداد من {0} إلى {180} يوماً.' },
  'v.detentionHours': { en: 'Free hours are {0} to {72}.', ar: 'الساعات المجانية من {0} إلى {72}.' },
  'v.deliveryType': { en: 'Choose a delivery type.', ar: 'اختر نوع التوصيل.' },
  'v.ibanCountry': { en: 'A Saudi IBAN starts with SA.', ar: 'يبدأ رقم الآيبان السعودي بـ SA.' },
  'v.ibanFormat': { en: 'A Saudi IBAN is SA followed by {22} digits and letters.', ar: 'رقم الآيبان السعودي هو SA متبوعاً بـ {22} خانة من الأرقام والحروف.' },
  'v.ibanCheck': { en: 'This IBAN’s check digits do not match: look for a typo.', ar: 'أرقام التحقق في رقم الآيبان غير مطابقة: تحقّق من وجود خطأ في الكتابة.' },
  'v.holderName': { en: 'Give the account holder’s name ({2} to {100} characters).', ar: 'اكتب اسم صاحب الحساب ({2} إلى {100} حرف).' },
  'v.disputeReason': { en: 'Give the reason in {10} to {500} characters.', ar: 'اكتب السبب في {10} إلى {500} حرف.' },
  'v.disputeEvidence': { en: 'Describe the evidence in {10} to {4000} characters.', ar: 'صف الأدلة في {10} إلى {4000} حرف.' },
  'v.deliveryToMax': { en: 'Delivery to can have at most {100} characters.', ar: 'حقل التسليم إلى {100} حرف كحد أقصى.' },
  'v.pickupWindow': { en: 'The latest pickup must be on or after the earliest pickup.', ar: 'يجب أن يكون آخر موعد للتحميل في أول موعد للتحميل أو بعده.' },
  'v.pickupWindowDrop': { en: 'The latest pickup must be before the delivery date.', ar: 'يجب أن يكون آخر موعد للتحميل قبل تاريخ التسليم.' },
  'v.vendorsRequired': { en: 'Choose at least one vendor.', ar: 'اختر مورّداً واحداً على الأقل.' },
  'v.vendorsMax': { en: 'Choose at most {20} vendors.', ar: 'اختر {20} مورّداً كحد أقصى.' },
  'v.bookNowFor': { en: 'Choose who may book now.', ar: 'اختر من يمكنه الحجز الفوري.' },
  'v.vendorsDuplicate': { en: 'A vendor is chosen twice.', ar: 'تم اختيار مورّد مرتين.' },
  'v.extendNothing': { en: 'Choose a new pickup or delivery date.', ar: 'اختر تاريخ تحميل أو تسليم جديداً.' },
  // contact form (issue 8)
  'v.contactName': { en: 'Enter your name ({2} to {80} characters).', ar: 'أدخل اسمك (من {2} إلى {80} حرفاً).' },
  'v.contactTopic': { en: 'Choose what your message is about.', ar: 'اختر موضوع رسالتك.' },
  'v.contactMessage': { en: 'Write a message of {10} to {2,000} characters.', ar: 'اكتب رسالة من {10} إلى {2,000} حرف.' },
} as const satisfies Record<string, { en: string; ar: string }>;

export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;

/** True when `msg` is one of our validation keys. */
export function isValidationKey(msg: string): msg is ValidationMessageKey {
  return Object.prototype.hasOwnProperty.call(VALIDATION_MESSAGES, msg);
}

/**
 * Text of a validation key in `lang`, its numbers (`{10}` in the catalogue) in `digits`, the
 * reader's digit system (default: the language's); other strings are returned unchanged.
 */
export function localizeValidationMessage(msg: string, lang: Language | string = 'en', digits?: DigitSystem): string {
  if (!isValidationKey(msg)) return msg;
  return lang === 'ar' ? localizeNumbers(VALIDATION_MESSAGES[msg].ar, 'ar', digits) : localizeNumbers(VALIDATION_MESSAGES[msg].en, 'en', digits);
}

/**
 * The server's success messages (issue 18): the `message` of every 2xx response envelope, one
 * table per module, each text in English and Arabic (a unit test checks both are there; another
 * fails when a route file keeps its own table). Quantities are written in braces as in the error
 * catalogue (`{3.5}`) and follow the reader's digit system. Read them with `message`.
 */
export const MESSAGES = {
  common: {
    ok: { en: 'OK', ar: 'تم' },
  },
  apikeys: {
    created: { en: 'API key created. Copy it now: it is shown only once.', ar: 'تم إنشاء مفتاح الواجهة البرمجية. انسخه الآن: لن يظهر مرة أخرى.' },
    revoked: { en: 'API key revoked.', ar: 'تم إلغاء مفتاح الواجهة البرمجية.' },
  },
  assignment: {
    assigned: { en: 'Vehicle and driver assigned.', ar: 'تم إسناد المركبة والسائق.' },
    completed: { en: 'Shipment completed.', ar: 'اكتملت الشحنة.' },
    unassigned: { en: 'Vehicle and driver unassigned.', ar: 'تم إلغاء إسناد المركبة والسائق.' },
  },
  contact: {
    sent: {
      en: 'Thank you. Your message reached our team; we answer within one working day. A copy is on its way to your e-mail.',
      ar: 'شكراً لك. وصلت رسالتك إلى فريقنا وسنرد خلال يوم عمل واحد. أرسلنا نسخة إلى بريدك الإلكتروني.',
    },
  },
  csv: {
    accepted: { en: 'Upload received. Rows are being processed.', ar: 'تم استلام الملف. جاري معالجة الصفوف.' },
    retried: { en: 'Rows resubmitted.', ar: 'تمت إعادة إرسال الصفوف.' },
  },
  verification: {
    uploaded: { en: 'Document saved.', ar: 'تم حفظ المستند.' },
    submitted: {
      en: 'Your documents were sent for review. We will let you know when they are approved.',
      ar: 'تم إرسال مستنداتك للمراجعة. سنبلغك عند الموافقة عليها.',
    },
  },
  files: {
    uploaded: { en: 'File uploaded.', ar: 'تم رفع الملف.' },
  },
  vendors: {
    saved: { en: 'Vendor saved.', ar: 'تم حفظ المورد.' },
    deleted: { en: 'Vendor deleted.', ar: 'تم حذف المورد.' },
    requestSubmitted: { en: 'Request submitted. The company will review it.', ar: 'تم إرسال الطلب. ستقوم الشركة بمراجعته.' },
    statusUpdated: { en: 'Status updated.', ar: 'تم تحديث الحالة.' },
  },
  profile: {
    profileSaved: { en: 'Business profile saved.', ar: 'تم حفظ الملف التجاري.' },
    contactSaved: { en: 'Contact info saved.', ar: 'تم حفظ معلومات التواصل.' },
    addressSaved: { en: 'Address saved.', ar: 'تم حفظ العنوان.' },
    addressDeleted: { en: 'Address deleted.', ar: 'تم حذف العنوان.' },
  },
  relations: {
    favourited: { en: 'Added to your favourites.', ar: 'تمت الإضافة إلى المفضلة.' },
    unfavourited: { en: 'Removed from your favourites.', ar: 'تمت الإزالة من المفضلة.' },
    blocked: { en: 'User blocked.', ar: 'تم حظر المستخدم.' },
    unblocked: { en: 'User unblocked.', ar: 'تم إلغاء حظر المستخدم.' },
    settingsSaved: { en: 'Settings saved.', ar: 'تم حفظ الإعدادات.' },
  },
  team: {
    invited: { en: 'Invitation sent by SMS.', ar: 'أُرسلت الدعوة برسالة نصية.' },
    roleChanged: { en: 'Role changed.', ar: 'تم تغيير الدور.' },
    removed: { en: 'Member removed.', ar: 'تمت إزالة العضو.' },
    accepted: { en: 'You joined the team.', ar: 'انضممت إلى الفريق.' },
    declined: { en: 'Invitation declined.', ar: 'تم رفض الدعوة.' },
    left: { en: 'You left the team.', ar: 'غادرت الفريق.' },
  },
  webhooks: {
    created: { en: 'Webhook added. Keep its signing secret safe.', ar: 'تمت إضافة الويب هوك. احفظ سر التوقيع في مكان آمن.' },
    saved: { en: 'Webhook saved.', ar: 'تم حفظ الويب هوك.' },
    deleted: { en: 'Webhook deleted.', ar: 'تم حذف الويب هوك.' },
    resent: { en: 'The delivery will be sent again.', ar: 'سيتم إرسال التسليم مرة أخرى.' },
  },
  trips: {
    identified: { en: 'Welcome. Your jobs are below.', ar: 'مرحباً. مهامك أدناه.' },
    stepSaved: { en: 'Step saved.', ar: 'تم حفظ الخطوة.' },
    proofSaved: { en: 'Proof uploaded.', ar: 'تم رفع الإثبات.' },
    positions: { en: 'Positions received.', ar: 'تم استلام المواقع.' },
    paid: { en: 'Payment marked as received.', ar: 'تم تسجيل استلام الدفعة.' },
  },
  auth: {
    guest: { en: 'Signed in as a guest.', ar: 'تم الدخول كزائر.' },
    otpSent: { en: 'Verification code sent.', ar: 'تم إرسال رمز التحقق.' },
    signedUp: { en: 'Account created. It is pending approval.', ar: 'تم إنشاء الحساب وهو بانتظار الموافقة.' },
    signedIn: { en: 'Signed in.', ar: 'تم تسجيل الدخول.' },
    tokenRotated: { en: 'Token regenerated.', ar: 'تم تجديد رمز الدخول.' },
    loggedOut: { en: 'Signed out.', ar: 'تم تسجيل الخروج.' },
    passwordChanged: { en: 'Password changed successfully.', ar: 'تم تغيير كلمة المرور بنجاح.' },
    passwordReset: { en: 'Password reset. Sign in with your new password.', ar: 'تمت إعادة تعيين كلمة المرور. سجّل الدخول بكلمة المرور الجديدة.' },
    profileSaved: { en: 'Profile saved.', ar: 'تم حفظ الملف الشخصي.' },
  },
  billing: {
    trial: { en: 'Your free trial has started.', ar: 'بدأت تجربتك المجانية.' },
    paid: { en: 'Payment successful. Your plan is active.', ar: 'تم الدفع بنجاح. اشتراكك فعّال الآن.' },
    recharged: { en: 'Payment successful. Your wallet was recharged.', ar: 'تم الدفع بنجاح. تم شحن محفظتك.' },
    action: { en: 'Confirm the payment with your bank.', ar: 'أكّد عملية الدفع مع البنك.' },
    cancelled: { en: 'Your plan will end at the end of the current period.', ar: 'سينتهي اشتراكك بنهاية الفترة الحالية.' },
    cardAdded: { en: 'Card added successfully.', ar: 'تمت إضافة البطاقة بنجاح.' },
    cardRemoved: { en: 'Card removed.', ar: 'تمت إزالة البطاقة.' },
  },
  offers: {
    sent: { en: 'Offer sent.', ar: 'تم إرسال العرض.' },
    accept: { en: 'Offer accepted. The load is booked.', ar: 'تم قبول العرض وحجز الشحنة.' },
    reject: { en: 'Offer rejected.', ar: 'تم رفض العرض.' },
    counter: { en: 'Counter offer sent.', ar: 'تم إرسال العرض المقابل.' },
    withdrawn: { en: 'Offer withdrawn.', ar: 'تم سحب العرض.' },
    booked: { en: 'Booked at the posted price.', ar: 'تم الحجز بالسعر المعلن.' },
  },
  fleet: {
    vehicleSaved: { en: 'Vehicle saved.', ar: 'تم حفظ المركبة.' },
    trailerSaved: { en: 'Trailer saved.', ar: 'تم حفظ المقطورة.' },
    driverSaved: { en: 'Driver saved.', ar: 'تم حفظ السائق.' },
    deleted: { en: 'Deleted.', ar: 'تم الحذف.' },
    suspended: { en: 'Suspended.', ar: 'تم الإيقاف.' },
    activated: { en: 'Activated.', ar: 'تم التفعيل.' },
    linkSent: { en: 'The trip link was sent to the driver by SMS.', ar: 'تم إرسال رابط الرحلة إلى السائق برسالة نصية.' },
    statusUpdated: { en: 'Status updated.', ar: 'تم تحديث الحالة.' },
    waslVerified: { en: 'Verified with WASL.', ar: 'تم التوثيق في وصل.' },
    waslNotVerified: { en: 'WASL did not verify it. See the reasons.', ar: 'لم يتم التوثيق في وصل. اطلع على الأسباب.' },
    waslNotRequired: { en: 'WASL is not required under {3.5} tons.', ar: 'لا يلزم التسجيل في وصل لأقل من {3.5} طن.' },
  },
  bayan: {
    created: { en: 'Bayan created.', ar: 'تم إنشاء البيان.' },
    pending: {
      en: 'Bayan did not answer. The shipment waits in pending Bayan and we retry automatically.',
      ar: 'لم تستجب منصة بيان. الشحنة بانتظار البيان وسنعيد المحاولة تلقائياً.',
    },
    closed: { en: 'Bayan closed. The shipment is completed.', ar: 'تم إغلاق البيان. اكتملت الشحنة.' },
    cancelled: { en: 'Bayan and shipment cancelled.', ar: 'تم إلغاء البيان والشحنة.' },
    saved: { en: 'Waybill config saved.', ar: 'تم حفظ إعدادات بوليصة الشحن.' },
  },
  tenders: {
    created: { en: 'Tender sent to the carriers.', ar: 'تم إرسال الطرح إلى الناقلين.' },
    answered: { en: 'Your answer was sent.', ar: 'تم إرسال ردك.' },
    awarded: { en: 'Tender awarded: the shipment is booked.', ar: 'تمت ترسية الطرح: تم حجز الشحنة.' },
    cancelled: { en: 'Tender cancelled.', ar: 'تم إلغاء الطرح.' },
  },
  notifications: {
    marked: { en: 'Notifications marked as read.', ar: 'تم تعليم الإشعارات كمقروءة.' },
    preferencesSaved: { en: 'Notification preferences saved.', ar: 'تم حفظ تفضيلات الإشعارات.' },
    pushSubscribed: { en: 'This browser will receive push notifications.', ar: 'سيتلقى هذا المتصفح الإشعارات الفورية.' },
    pushUnsubscribed: { en: 'This browser will no longer receive push notifications.', ar: 'لن يتلقى هذا المتصفح الإشعارات الفورية بعد الآن.' },
  },
  searches: {
    saved: { en: 'Search saved.', ar: 'تم حفظ البحث.' },
    renamed: { en: 'Search renamed.', ar: 'تمت إعادة تسمية البحث.' },
    deleted: { en: 'Search deleted.', ar: 'تم حذف البحث.' },
    recorded: { en: 'Added to recent searches.', ar: 'أُضيف إلى عمليات البحث الأخيرة.' },
  },
  rateAlerts: {
    created: { en: 'Rate alert created.', ar: 'تم إنشاء تنبيه السعر.' },
    updated: { en: 'Rate alert updated.', ar: 'تم تحديث تنبيه السعر.' },
    deleted: { en: 'Rate alert deleted.', ar: 'تم حذف تنبيه السعر.' },
  },
  trucks: {
    created: { en: 'Truck posted successfully.', ar: 'تم نشر الشاحنة بنجاح.' },
    draft: { en: 'Truck saved as unposted.', ar: 'تم حفظ الشاحنة كغير منشورة.' },
    updated: { en: 'Truck updated successfully.', ar: 'تم تحديث الشاحنة بنجاح.' },
    deleted: { en: 'Truck deleted.', ar: 'تم حذف الشاحنة.' },
    unposted: { en: 'Truck unposted.', ar: 'تم إلغاء نشر الشاحنة.' },
    reposted: { en: 'Truck reposted.', ar: 'تمت إعادة نشر الشاحنة.' },
    duplicated: { en: 'Truck duplicated as unposted.', ar: 'تم نسخ الشاحنة كغير منشورة.' },
  },
  loads: {
    created: { en: 'Load posted successfully.', ar: 'تم نشر الشحنة بنجاح.' },
    draft: { en: 'Load saved as unposted.', ar: 'تم حفظ الشحنة كغير منشورة.' },
    updated: { en: 'Load updated successfully.', ar: 'تم تحديث الشحنة بنجاح.' },
    updatedOffersDeleted: {
      en: 'Load updated. Its offers were removed because the lane or equipment changed.',
      ar: 'تم تحديث الشحنة. حُذفت العروض عليها لتغيّر المسار أو نوع المعدة.',
    },
    deleted: { en: 'Load deleted.', ar: 'تم حذف الشحنة.' },
    unposted: { en: 'Load unposted.', ar: 'تم إلغاء نشر الشحنة.' },
    reposted: { en: 'Load reposted.', ar: 'تمت إعادة نشر الشحنة.' },
    duplicated: { en: 'Load duplicated as unposted.', ar: 'تم نسخ الشحنة كغير منشورة.' },
    ownVehicle: { en: 'Shipment created for your own vehicle.', ar: 'تم إنشاء الشحنة لمركبتك الخاصة.' },
    audience: { en: 'The shipment’s audience was changed.', ar: 'تم تغيير الجهة التي تُعرض عليها الشحنة.' },
    extended: { en: 'Dates extended.', ar: 'تم تمديد التواريخ.' },
    bookmarked: { en: 'Bookmarked.', ar: 'تمت الإضافة إلى المحفوظات.' },
    unbookmarked: { en: 'Bookmark removed.', ar: 'تمت الإزالة من المحفوظات.' },
  },
} as const satisfies Record<string, Record<string, { en: string; ar: string }>>;

type Messages = typeof MESSAGES;
/** A catalogue key, `<module>.<name>`: `'contact.sent'`, `'common.ok'`. */
export type MessageKey = { [M in keyof Messages]: `${M}.${keyof Messages[M] & string}` }[keyof Messages];

/**
 * Text of a success message in `lang` (English unless `'ar'`), its braced numbers in `digits`,
 * the reader's digit system (default: the language's). Throws on a key that is not in the
 * catalogue (only reachable through a cast; the type lists every key).
 */
export function message(key: MessageKey, lang: Language | string = 'en', digits?: DigitSystem): string {
  const dot = key.indexOf('.');
  const table: Record<string, { en: string; ar: string }> | undefined = (MESSAGES as Record<string, Record<string, { en: string; ar: string }>>)[
    key.slice(0, dot)
  ];
  const entry = table && Object.prototype.hasOwnProperty.call(table, key.slice(dot + 1)) ? table[key.slice(dot + 1)] : undefined;
  if (!entry) throw new Error(`unknown message key ${key}`);
  const l = lang === 'ar' ? 'ar' : 'en';
  return localizeNumbers(entry[l], l, digits);
}
