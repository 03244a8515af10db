//! What every format's builder tells a record sink: the values of records, in document
//! order. Two sinks take them: [`crate::columns::Columns`] appends them to Arrow columns,
//! [`crate::infer::Inferrer`] learns a schema from them.

use quarry_raw_value::Datetime;

/// A number as its format read it.
pub(crate) use quarry_raw_value::Num;

/// Why a value was refused; the format's builder adds where. Boxed, so that a sink's
/// `Result<(), Misfit>` is returned in registers.
pub(crate) type Misfit = Box<str>;

/// Receives records as events. A record is a struct: [`Sink::begin_record`], then
/// `key` + value pairs, then [`Sink::end_record`]. Values nest with
/// `begin_struct`/`key`/`end_struct` and `begin_list`/`end_list`.
pub(crate) trait Sink {
    fn begin_record(&mut self) -> Result<(), Misfit>;
    fn end_record(&mut self) -> Result<(), Misfit>;
    fn null(&mut self) -> Result<(), Misfit>;
    fn bool(&mut self, value: bool) -> Result<(), Misfit>;
    fn number(&mut self, value: Num) -> Result<(), Misfit>;
    fn string(&mut self, value: &str) -> Result<(), Misfit>;
    fn datetime(&mut self, value: &Datetime) -> Result<(), Misfit>;
    fn begin_list(&mut self) -> Result<(), Misfit>;
    fn end_list(&mut self) -> Result<(), Misfit>;
    fn begin_struct(&mut self) -> Result<(), Misfit>;
    fn key(&mut self, key: &str) -> Result<(), Misfit>;
    fn end_struct(&mut self) -> Result<(), Misfit>;
    /// Records finished so far.
    fn records(&self) -> usize;
    /// After a misfit for a field the schema does not have: the field's path by name from
    /// the record (list levels left out), for formats that place it by looking it up.
    fn refused_field(&self) -> Option<&[String]> {
        None
    }
}
