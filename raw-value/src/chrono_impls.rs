//! `Decode` and `Encode` for `chrono`'s date and time types (feature `chrono`).
//!
//! Each chrono type takes exactly one of the datetime kinds, from a format's own
//! datetime (TOML, plist) or from RFC 3339 text (JSON, YAML, XML): `NaiveDate` a local
//! date, `NaiveTime` a local time, `NaiveDateTime` a local date-time, and
//! `DateTime<FixedOffset>` / `DateTime<Utc>` a date-time with an offset.

use chrono::{
    DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike, Utc,
};

use crate::{
    Date, Datetime, Decode, DecodeErrors, Encode, EncodeError, Encoder, Offset, RawValue, Time,
};

fn datetime_of(value: RawValue<'_>, expected: &str) -> Result<Datetime, DecodeErrors> {
    let found = crate::describe(&value);
    Datetime::decode(value).map_err(|_| {
        DecodeErrors::new(crate::DecodeErrorKind::InvalidType {
            expected: expected.into(),
            found,
        })
    })
}

fn wrong_kind(expected: &str, d: &Datetime) -> DecodeErrors {
    DecodeErrors::new(crate::DecodeErrorKind::InvalidType {
        expected: expected.into(),
        found: format!("datetime {d}"),
    })
}

fn naive_date(date: Date) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(
        i32::from(date.year),
        u32::from(date.month),
        u32::from(date.day),
    )
}

fn naive_time(time: Time) -> Option<NaiveTime> {
    // chrono spells a leap second as second 59 with a nanosecond count past one second.
    let (second, nano) = if time.second == 60 {
        (59, 1_000_000_000 + time.nanosecond)
    } else {
        (u32::from(time.second), time.nanosecond)
    };
    NaiveTime::from_hms_nano_opt(u32::from(time.hour), u32::from(time.minute), second, nano)
}

fn offset_of(offset: Offset) -> Option<FixedOffset> {
    match offset {
        Offset::Z => FixedOffset::east_opt(0),
        Offset::Minutes(m) => FixedOffset::east_opt(i32::from(m) * 60),
    }
}

impl<'de> Decode<'de> for NaiveDate {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        const EXPECTED: &str = "local date";
        let d = datetime_of(value, EXPECTED)?;
        match (d.date, d.time) {
            (Some(date), None) => naive_date(date).ok_or_else(|| wrong_kind(EXPECTED, &d)),
            _ => Err(wrong_kind(EXPECTED, &d)),
        }
    }

    fn shape() -> crate::Shape {
        crate::Shape::Datetime
    }
}

impl<'de> Decode<'de> for NaiveTime {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        const EXPECTED: &str = "local time";
        let d = datetime_of(value, EXPECTED)?;
        match (d.date, d.time) {
            (None, Some(time)) => naive_time(time).ok_or_else(|| wrong_kind(EXPECTED, &d)),
            _ => Err(wrong_kind(EXPECTED, &d)),
        }
    }

    fn shape() -> crate::Shape {
        crate::Shape::Datetime
    }
}

impl<'de> Decode<'de> for NaiveDateTime {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        const EXPECTED: &str = "local date-time";
        let d = datetime_of(value, EXPECTED)?;
        match (d.date, d.time, d.offset) {
            (Some(date), Some(time), None) => naive_date(date)
                .zip(naive_time(time))
                .map(|(date, time)| date.and_time(time))
                .ok_or_else(|| wrong_kind(EXPECTED, &d)),
            _ => Err(wrong_kind(EXPECTED, &d)),
        }
    }

    fn shape() -> crate::Shape {
        crate::Shape::Datetime
    }
}

impl<'de> Decode<'de> for DateTime<FixedOffset> {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        const EXPECTED: &str = "date-time with an offset";
        let d = datetime_of(value, EXPECTED)?;
        match (d.date, d.time, d.offset) {
            (Some(date), Some(time), Some(offset)) => naive_date(date)
                .zip(naive_time(time))
                .zip(offset_of(offset))
                .and_then(|((date, time), offset)| {
                    offset.from_local_datetime(&date.and_time(time)).single()
                })
                .ok_or_else(|| wrong_kind(EXPECTED, &d)),
            _ => Err(wrong_kind(EXPECTED, &d)),
        }
    }

    fn shape() -> crate::Shape {
        crate::Shape::Datetime
    }
}

impl<'de> Decode<'de> for DateTime<Utc> {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        DateTime::<FixedOffset>::decode(value).map(|d| d.with_timezone(&Utc))
    }

    fn shape() -> crate::Shape {
        crate::Shape::Datetime
    }
}

fn date_of(date: NaiveDate) -> Result<Date, EncodeError> {
    let year = u16::try_from(date.year())
        .ok()
        .filter(|y| *y <= 9999)
        .ok_or_else(|| EncodeError::custom(format!("year {} is outside 0..=9999", date.year())))?;
    Ok(Date {
        year,
        month: date.month() as u8,
        day: date.day() as u8,
    })
}

fn time_of(time: NaiveTime) -> Time {
    let nano = time.nanosecond();
    let (second, nanosecond) = if nano >= 1_000_000_000 {
        (60, nano - 1_000_000_000)
    } else {
        (time.second() as u8, nano)
    };
    Time {
        hour: time.hour() as u8,
        minute: time.minute() as u8,
        second,
        nanosecond,
    }
}

impl Encode for NaiveDate {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encoder.datetime(&Datetime {
            date: Some(date_of(*self)?),
            time: None,
            offset: None,
        })
    }
}

impl Encode for NaiveTime {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encoder.datetime(&Datetime {
            date: None,
            time: Some(time_of(*self)),
            offset: None,
        })
    }
}

impl Encode for NaiveDateTime {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        encoder.datetime(&Datetime {
            date: Some(date_of(self.date())?),
            time: Some(time_of(self.time())),
            offset: None,
        })
    }
}

impl<Tz: TimeZone> Encode for DateTime<Tz> {
    fn encode<E: Encoder + ?Sized>(&self, encoder: &mut E) -> Result<(), EncodeError> {
        let local = self.naive_local();
        let seconds = chrono::Offset::fix(self.offset()).local_minus_utc();
        let offset = if seconds == 0 {
            Offset::Z
        } else {
            Offset::Minutes((seconds / 60) as i16)
        };
        encoder.datetime(&Datetime {
            date: Some(date_of(local.date())?),
            time: Some(time_of(local.time())),
            offset: Some(offset),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> RawValue<'static> {
        RawValue::Datetime(text.parse().unwrap())
    }

    #[test]
    fn each_type_takes_its_kind_and_round_trips() {
        let d = NaiveDate::decode(raw("2024-02-29")).unwrap();
        assert_eq!(d, NaiveDate::from_ymd_opt(2024, 2, 29).unwrap());
        let t = NaiveTime::decode(raw("23:59:60.5")).unwrap();
        assert_eq!(t.second(), 59);
        assert_eq!(t.nanosecond(), 1_500_000_000);
        let local = NaiveDateTime::decode(raw("1979-05-27T07:32:00")).unwrap();
        assert_eq!(local.to_string(), "1979-05-27 07:32:00");
        let fixed = DateTime::<FixedOffset>::decode(raw("1979-05-27T00:32:00.999-07:00")).unwrap();
        assert_eq!(fixed.to_rfc3339(), "1979-05-27T00:32:00.999-07:00");
        let utc =
            DateTime::<Utc>::decode(RawValue::String("1979-05-27T00:32:00-07:00".into())).unwrap();
        assert_eq!(utc.to_rfc3339(), "1979-05-27T07:32:00+00:00");
        for value in [
            d.to_raw_value(),
            t.to_raw_value(),
            local.to_raw_value(),
            fixed.to_raw_value(),
        ] {
            let value = value.unwrap();
            assert!(matches!(value, RawValue::Datetime(_)), "{value:?}");
        }
        assert_eq!(
            DateTime::<FixedOffset>::decode(fixed.to_raw_value().unwrap()).unwrap(),
            fixed
        );
        assert_eq!(NaiveTime::decode(t.to_raw_value().unwrap()).unwrap(), t);
    }

    #[test]
    fn a_wrong_kind_is_named() {
        let e = NaiveDate::decode(raw("1979-05-27T07:32:00Z")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected local date, found datetime 1979-05-27T07:32:00Z"
        );
        let e = DateTime::<Utc>::decode(raw("1979-05-27T07:32:00")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("expected date-time with an offset"),
            "{e}"
        );
        let e = NaiveDate::decode(RawValue::Int(3)).unwrap_err();
        assert_eq!(e.to_string(), "expected local date, found 3");
    }
}
