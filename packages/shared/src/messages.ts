import type { Language } from './constants.ts';

/**
 * Field-level validation messages used by the shared zod schemas. Schemas carry the key
 * (`v.<name>`) as their message; `localizeValidationMessage` turns it into text for the
 * client's language. Every key has an English and an Arabic twin (a unit test checks it).
 */
export const VALIDATION_MESSAGES = {
  'v.required': { en: 'This field is required.', ar: 'هذا الحقل مطلوب.' },
  'v.phoneInvalid': { en: 'Enter a valid phone number.', ar: 'أدخل رقم جوال صحيحاً.' },
  'v.phoneStart5': { en: 'Phone number must start with 5.', ar: 'يجب أن يبدأ رقم الجوال بالرقم 5.' },
  'v.emailInvalid': { en: 'Enter a valid email address.', ar: 'أدخل بريداً إلكترونياً صحيحاً.' },
  'v.passwordLength': { en: 'Password must be 6 to 15 characters.', ar: 'يجب أن تتكون كلمة المرور من 6 إلى 15 حرفاً.' },
  'v.passwordCapital': { en: 'Password needs a capital letter.', ar: 'يجب أن تحتوي كلمة المرور على حرف كبير.' },
  'v.passwordSpecial': { en: 'Password needs a special character.', ar: 'يجب أن تحتوي كلمة المرور على رمز خاص.' },
  'v.passwordLoginMin': { en: 'Password must be at least 6 characters.', ar: 'يجب ألا تقل كلمة المرور عن 6 أحرف.' },
  'v.passwordsDoNotMatch': { en: 'Passwords do not match.', ar: 'كلمتا المرور غير متطابقتين.' },
  'v.otpFormat': { en: 'The code is 4 digits.', ar: 'رمز التحقق مكوّن من 4 أرقام.' },
  'v.nameRequired': { en: 'Enter a name (up to 60 characters).', ar: 'أدخل اسماً (حتى 60 حرفاً).' },
  'v.cityInvalid': { en: 'Enter a valid city.', ar: 'أدخل مدينة صحيحة.' },
  'v.stopsPickupRequired': { en: 'Add at least one pickup.', ar: 'أضف نقطة تحميل واحدة على الأقل.' },
  'v.stopsDropRequired': { en: 'Add at least one drop.', ar: 'أضف نقطة تنزيل واحدة على الأقل.' },
  'v.stopsFirstPickup': { en: 'The first stop must be a pickup.', ar: 'يجب أن تكون النقطة الأولى نقطة تحميل.' },
  'v.stopsLastDrop': { en: 'The last destination is required.', ar: 'الوجهة الأخيرة مطلوبة.' },
  'v.stopsMax': { en: 'At most 10 stops.', ar: '10 نقاط توقف كحد أقصى.' },
  'v.stopsPickupDropSame': { en: 'Pickup and drop addresses must differ.', ar: 'يجب أن يختلف عنوان التحميل عن عنوان التنزيل.' },
  'v.stopsDuplicateAddress': { en: 'An address cannot be chosen twice.', ar: 'لا يمكن اختيار العنوان نفسه مرتين.' },
  'v.stopsOrder': { en: 'Each stop must be on or after the previous one.', ar: 'يجب أن يكون موعد كل نقطة في موعد النقطة السابقة أو بعده.' },
  'v.timeInPast': { en: 'Time cannot be in the past (allow at least 1 hour from now).', ar: 'لا يمكن أن يكون الوقت في الماضي (اترك ساعة على الأقل من الآن).' },
  'v.dateInvalid': { en: 'Enter a valid date and time.', ar: 'أدخل تاريخاً ووقتاً صحيحين.' },
  'v.cargoRequired': { en: 'Add at least one cargo line.', ar: 'أضف بنداً واحداً من البضاعة على الأقل.' },
  'v.cargoMax': { en: 'At most 10 cargo lines.', ar: '10 بنود بضاعة كحد أقصى.' },
  'v.cargoPositive': { en: 'Cargo dimensions, quantity and weight must be above 0.', ar: 'يجب أن تكون أبعاد البضاعة وكميتها ووزنها أكبر من 0.' },
  'v.weightDigits': { en: 'Weight per item can have at most 10 digits.', ar: 'وزن القطعة 10 أرقام كحد أقصى.' },
  'v.quantityInteger': { en: 'Quantity must be a whole number.', ar: 'يجب أن تكون الكمية عدداً صحيحاً.' },
  'v.goodsTypeRequired': { en: 'Choose a goods type.', ar: 'اختر نوع البضاعة.' },
  'v.equipmentRequired': { en: 'Choose an equipment type.', ar: 'اختر نوع المعدة.' },
  'v.pricePositive': { en: 'Price must be above 0 SAR.', ar: 'يجب أن يكون السعر أكبر من 0 ريال.' },
  'v.priceMax': { en: 'Price is too large.', ar: 'السعر كبير جداً.' },
  'v.commentsMax': { en: 'Comments can have at most 140 characters.', ar: 'التعليقات 140 حرفاً كحد أقصى.' },
  'v.addressMax': { en: 'Address can have at most 200 characters.', ar: 'العنوان 200 حرف كحد أقصى.' },
  'v.radiusOption': { en: 'Choose a radius of 10, 50, 100, 200, 300, 500 or 1000 km.', ar: 'اختر نطاقاً من 10 أو 50 أو 100 أو 200 أو 300 أو 500 أو 1000 كم.' },
  'v.dateRange': { en: 'The end date must be on or after the start date.', ar: 'يجب أن يكون تاريخ النهاية في تاريخ البداية أو بعده.' },
} as const satisfies Record<string, { en: string; ar: string }>;

export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;

/** True when `msg` is one of our validation keys. */
export function isValidationKey(msg: string): msg is ValidationMessageKey {
  return Object.prototype.hasOwnProperty.call(VALIDATION_MESSAGES, msg);
}

/** Text of a validation key in `lang`; other strings are returned unchanged. */
export function localizeValidationMessage(msg: string, lang: Language | string = 'en'): string {
  if (!isValidationKey(msg)) return msg;
  return lang === 'ar' ? VALIDATION_MESSAGES[msg].ar : VALIDATION_MESSAGES[msg].en;
}
