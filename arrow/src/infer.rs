//! Schema inference: a sink that learns each field's type from the records it is given,
//! by arrow-json's rules, so a schema inferred here reads a file as arrow-json would.

use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields, Schema, TimeUnit};
use quarry_raw_value::Datetime;

use crate::error::Error;
use crate::sink::{Misfit, Num, Sink};
use crate::{feed, records, Options, RecordFormat};

const BOOL: u8 = 1;
const INT: u8 = 2;
const FLOAT: u8 = 4;
const STR: u8 = 8;
const TIMESTAMP_UTC: u8 = 16;
const TIMESTAMP_LOCAL: u8 = 32;
const DATE: u8 = 64;
const TIME: u8 = 128;

/// What the values of one field have been so far.
#[derive(Debug, Clone)]
enum Inferred {
    /// Only nulls (or nothing).
    Any,
    /// Scalars, as a set of the kinds above.
    Scalar(u8),
    List(Box<Inferred>),
    /// Fields in the order first seen.
    Object(Vec<(String, Inferred)>),
}

impl Inferred {
    /// arrow-json's merge: lists absorb scalars, objects merge by field, anything else
    /// meeting an object or a list of objects is an error. With `singles` (XML, where one
    /// child element is a lone value and several a list), lists absorb objects too.
    fn merge(&mut self, other: Inferred, singles: bool) -> Result<(), Misfit> {
        match (&mut *self, other) {
            (Inferred::List(this), Inferred::List(other)) => this.merge(*other, singles),
            (Inferred::Scalar(this), Inferred::Scalar(other)) => {
                *this |= other;
                Ok(())
            }
            (Inferred::Object(this), Inferred::Object(other)) => {
                for (key, value) in other {
                    entry(this, key).merge(value, singles)?;
                }
                Ok(())
            }
            (this @ Inferred::Any, other) => {
                *this = other;
                Ok(())
            }
            (_, Inferred::Any) => Ok(()),
            (Inferred::List(this), scalar @ Inferred::Scalar(_)) => this.merge(scalar, singles),
            (this @ Inferred::Scalar(_), Inferred::List(mut item)) => {
                item.merge(this.clone(), singles)?;
                *this = Inferred::List(item);
                Ok(())
            }
            (Inferred::List(this), object @ Inferred::Object(_)) if singles => {
                this.merge(object, singles)
            }
            (this @ Inferred::Object(_), Inferred::List(mut item)) if singles => {
                item.merge(this.clone(), singles)?;
                *this = Inferred::List(item);
                Ok(())
            }
            (this, other) => Err(format!(
                "a field holds both {} and {}",
                this.describe(),
                other.describe()
            )
            .into()),
        }
    }

    fn describe(&self) -> &'static str {
        match self {
            Inferred::Any => "nulls",
            Inferred::Scalar(_) => "scalars",
            Inferred::List(_) => "lists",
            Inferred::Object(_) => "objects",
        }
    }

    fn data_type(&self, views: bool) -> DataType {
        let text = if views {
            DataType::Utf8View
        } else {
            DataType::Utf8
        };
        match self {
            Inferred::Any => DataType::Null,
            Inferred::Scalar(kinds) => match *kinds {
                BOOL => DataType::Boolean,
                INT => DataType::Int64,
                FLOAT | 6 => DataType::Float64,
                TIMESTAMP_UTC => {
                    DataType::Timestamp(TimeUnit::Microsecond, Some(Arc::from("+00:00")))
                }
                TIMESTAMP_LOCAL => DataType::Timestamp(TimeUnit::Microsecond, None),
                DATE => DataType::Date32,
                _ => text,
            },
            Inferred::List(item) => {
                DataType::List(Arc::new(Field::new_list_field(item.data_type(views), true)))
            }
            Inferred::Object(fields) => DataType::Struct(to_fields(fields, views)),
        }
    }
}

fn entry(fields: &mut Vec<(String, Inferred)>, key: String) -> &mut Inferred {
    let at = match fields.iter().position(|(k, _)| *k == key) {
        Some(at) => at,
        None => {
            fields.push((key, Inferred::Any));
            fields.len() - 1
        }
    };
    &mut fields[at].1
}

fn to_fields(fields: &[(String, Inferred)], views: bool) -> Fields {
    fields
        .iter()
        .map(|(name, inferred)| Field::new(name, inferred.data_type(views), true))
        .collect()
}

/// How the items of one list have gone so far: its first item decides (as in arrow-json)
/// whether it is a list of scalars, of objects or of lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListOf {
    Unknown,
    Scalars,
    Objects,
    Lists,
}

enum Frame {
    Object {
        fields: Vec<(String, Inferred)>,
        key: Option<String>,
    },
    List {
        of: ListOf,
        item: Inferred,
    },
}

/// The sink that infers a schema from the first `limit` records.
pub(crate) struct Inferrer {
    record: Inferred,
    frames: Vec<Frame>,
    records: usize,
    limit: usize,
    /// XML: a list absorbs a lone object ([`Inferred::merge`]).
    singles: bool,
}

impl Inferrer {
    pub(crate) fn new(limit: Option<usize>, singles: bool) -> Self {
        Inferrer {
            record: Inferred::Object(Vec::new()),
            frames: Vec::new(),
            records: 0,
            limit: limit.unwrap_or(usize::MAX),
            singles,
        }
    }

    /// Whether enough records have been seen.
    pub(crate) fn is_full(&self) -> bool {
        self.records >= self.limit
    }

    pub(crate) fn schema(&self, views: bool) -> Schema {
        match &self.record {
            Inferred::Object(fields) => Schema::new(to_fields(fields, views)),
            _ => Schema::empty(),
        }
    }

    fn deliver(&mut self, value: Inferred) -> Result<(), Misfit> {
        match self.frames.last_mut() {
            Some(Frame::Object { fields, key }) => {
                let key = key.take().ok_or("a value without a key")?;
                entry(fields, key).merge(value, self.singles)
            }
            Some(Frame::List { of, item }) => {
                let kind = match value {
                    Inferred::Any | Inferred::Scalar(_) => ListOf::Scalars,
                    Inferred::Object(_) => ListOf::Objects,
                    Inferred::List(_) => ListOf::Lists,
                };
                if *of == ListOf::Unknown {
                    *of = kind;
                    *item = match kind {
                        ListOf::Scalars => Inferred::Scalar(0),
                        ListOf::Objects => Inferred::Object(Vec::new()),
                        _ => Inferred::Any,
                    };
                }
                if *of != kind {
                    return Err(match *of {
                        ListOf::Scalars => "a list of scalars holds a list or an object",
                        ListOf::Objects => "a list of objects holds something else",
                        _ => "a list of lists holds something else",
                    }
                    .into());
                }
                item.merge(value, self.singles)
            }
            None => Err("a value outside any record".into()),
        }
    }

    fn scalar(&mut self, kind: u8) -> Result<(), Misfit> {
        self.deliver(Inferred::Scalar(kind))
    }
}

impl Sink for Inferrer {
    fn begin_record(&mut self) -> Result<(), Misfit> {
        self.begin_struct()
    }

    fn end_record(&mut self) -> Result<(), Misfit> {
        match self.frames.pop() {
            Some(Frame::Object { fields, .. }) if self.frames.is_empty() => {
                self.record.merge(Inferred::Object(fields), self.singles)?;
                self.records += 1;
                Ok(())
            }
            _ => Err("unbalanced record".into()),
        }
    }

    fn null(&mut self) -> Result<(), Misfit> {
        self.deliver(Inferred::Any)
    }

    fn bool(&mut self, _: bool) -> Result<(), Misfit> {
        self.scalar(BOOL)
    }

    fn number(&mut self, value: Num) -> Result<(), Misfit> {
        self.scalar(match value {
            Num::I64(_) => INT,
            Num::U64(_) | Num::F64(_) => FLOAT,
        })
    }

    fn string(&mut self, _: &str) -> Result<(), Misfit> {
        self.scalar(STR)
    }

    fn datetime(&mut self, value: &Datetime) -> Result<(), Misfit> {
        self.scalar(match (value.date, value.time, value.offset) {
            (Some(_), Some(_), Some(_)) => TIMESTAMP_UTC,
            (Some(_), Some(_), None) => TIMESTAMP_LOCAL,
            (Some(_), None, _) => DATE,
            _ => TIME,
        })
    }

    fn begin_list(&mut self) -> Result<(), Misfit> {
        self.frames.push(Frame::List {
            of: ListOf::Unknown,
            item: Inferred::Any,
        });
        Ok(())
    }

    fn end_list(&mut self) -> Result<(), Misfit> {
        match self.frames.pop() {
            Some(Frame::List { of, item }) => {
                let item = if of == ListOf::Unknown {
                    Inferred::Any
                } else {
                    item
                };
                self.deliver(Inferred::List(Box::new(item)))
            }
            _ => Err("unbalanced list".into()),
        }
    }

    fn begin_struct(&mut self) -> Result<(), Misfit> {
        self.frames.push(Frame::Object {
            fields: Vec::new(),
            key: None,
        });
        Ok(())
    }

    fn key(&mut self, key: &str) -> Result<(), Misfit> {
        if let Some(Frame::Object { key: pending, .. }) = self.frames.last_mut() {
            *pending = Some(key.to_owned());
        }
        Ok(())
    }

    fn end_struct(&mut self) -> Result<(), Misfit> {
        match self.frames.pop() {
            Some(Frame::Object { fields, .. }) => self.deliver(Inferred::Object(fields)),
            _ => Err("unbalanced object".into()),
        }
    }

    fn records(&self) -> usize {
        self.records
    }
}

/// [`crate::infer_schema`].
pub(crate) fn infer_schema(
    bytes: &[u8],
    format: RecordFormat,
    options: &Options,
) -> Result<Schema, Error> {
    let mut inferrer = Inferrer::new(options.infer_records, format == RecordFormat::Xml);
    records::feed(bytes, format, options, &mut inferrer, &mut |sink| {
        if sink.is_full() {
            feed::Flow::Stop
        } else {
            feed::Flow::Go
        }
    })?;
    Ok(inferrer.schema(options.string_view))
}

/// The schemas of several files as one, by the rules inference follows within a file:
/// fields in the order first seen (a field one file lacks is null in its rows), `Null`
/// gives way to any type, `Int64` widens to `Float64` and mixed scalars to strings, a
/// scalar and a list of it make a list (with `singles`, for XML, an object and a list of
/// it too), structs merge by field. An object meeting a scalar is an error naming the
/// field.
#[cfg(feature = "datafusion")]
pub(crate) fn merge_schemas(schemas: &[Schema], singles: bool) -> Result<Schema, Error> {
    let mut fields: Vec<(String, Inferred)> = Vec::new();
    let mut views = false;
    for schema in schemas {
        for field in schema.fields() {
            views |= matches!(field.data_type(), DataType::Utf8View);
            entry(&mut fields, field.name().clone())
                .merge(learned(field.data_type()), singles)
                .map_err(|misfit| Error::new(format!("field `{}`: {misfit}", field.name())))?;
        }
    }
    Ok(Schema::new(to_fields(&fields, views)))
}

/// What an inferred (or given) type says a field's values have been.
#[cfg(feature = "datafusion")]
fn learned(data_type: &DataType) -> Inferred {
    match data_type {
        DataType::Null => Inferred::Any,
        DataType::Boolean => Inferred::Scalar(BOOL),
        t if t.is_integer() => Inferred::Scalar(INT),
        t if t.is_floating() => Inferred::Scalar(FLOAT),
        DataType::Timestamp(_, Some(_)) => Inferred::Scalar(TIMESTAMP_UTC),
        DataType::Timestamp(_, None) => Inferred::Scalar(TIMESTAMP_LOCAL),
        DataType::Date32 | DataType::Date64 => Inferred::Scalar(DATE),
        DataType::Time32(_) | DataType::Time64(_) => Inferred::Scalar(TIME),
        DataType::List(item) | DataType::LargeList(item) => {
            Inferred::List(Box::new(learned(item.data_type())))
        }
        DataType::Struct(fields) => Inferred::Object(
            fields
                .iter()
                .map(|f| (f.name().clone(), learned(f.data_type())))
                .collect(),
        ),
        _ => Inferred::Scalar(STR),
    }
}
